import { lazy, Suspense, useCallback, useEffect, useMemo, useState, type ComponentType } from 'react'
import { api, errorMessage, onSignedOut } from './api.ts'
import { follow } from './navigate.ts'
import { RebuildPanel } from './components/RebuildPanel.tsx'
import { useToast } from './components/Toaster.tsx'
import { LiveProvider, useLive } from './live.tsx'
import { TownProvider, useTown } from './town.tsx'
import { SignIn } from './screens/SignIn.tsx'
import type { SessionView } from '../shared/api.ts'

/**
 * A screen loaded on first visit, in its own chunk: the sign-in screen and the first screen load
 * only the code they need. `name` is the screen's export in its module.
 */
function lazyScreen<Module, Name extends keyof Module>(load: () => Promise<Module>, name: Name): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }))
}

// Each screen is its own chunk (one `lazyScreen(() => import(...), 'Name')` per screen, never a
// static import, so the sign-in screen stays small: console/test/bundle.test.ts holds it).
// Operators is for admins only: the server answers 403 to editors, and the app does not offer it.
// The console opens on Today: what needs doing now, each line leading to its screen.
const allScreens = [
  {
    path: '/today',
    label: 'Today',
    Screen: lazyScreen(() => import('./screens/Today.tsx'), 'Today'),
    adminOnly: false,
  },
  {
    path: '/alerts',
    label: 'Alerts',
    Screen: lazyScreen(() => import('./screens/Alerts.tsx'), 'Alerts'),
    adminOnly: false,
  },
  {
    path: '/attention',
    label: 'Needs attention',
    Screen: lazyScreen(() => import('./screens/NeedsAttention.tsx'), 'NeedsAttention'),
    adminOnly: false,
  },
  {
    path: '/migration',
    label: 'Migration',
    Screen: lazyScreen(() => import('./screens/Migration.tsx'), 'Migration'),
    adminOnly: false,
  },
  {
    path: '/crawler',
    label: 'Crawler',
    Screen: lazyScreen(() => import('./screens/Crawler.tsx'), 'Crawler'),
    adminOnly: false,
  },
  {
    path: '/businesses',
    label: 'Businesses',
    Screen: lazyScreen(() => import('./screens/Businesses.tsx'), 'Businesses'),
    adminOnly: false,
  },
  {
    path: '/events',
    label: 'Events',
    Screen: lazyScreen(() => import('./screens/Events.tsx'), 'Events'),
    adminOnly: false,
  },
  {
    path: '/feeds',
    label: 'Calendar feeds',
    Screen: lazyScreen(() => import('./screens/Feeds.tsx'), 'Feeds'),
    adminOnly: false,
  },
  {
    path: '/inbox',
    label: 'Inbox',
    Screen: lazyScreen(() => import('./screens/Inbox.tsx'), 'Inbox'),
    adminOnly: false,
  },
  {
    path: '/attractions',
    label: 'Attractions',
    Screen: lazyScreen(() => import('./screens/Attractions.tsx'), 'Attractions'),
    adminOnly: false,
  },
  {
    path: '/pages',
    label: 'Pages',
    Screen: lazyScreen(() => import('./screens/Pages.tsx'), 'Pages'),
    adminOnly: false,
  },
  { path: '/jobs', label: 'Jobs', Screen: lazyScreen(() => import('./screens/Jobs.tsx'), 'Jobs'), adminOnly: false },
  {
    path: '/town',
    label: 'Town',
    Screen: lazyScreen(() => import('./screens/Town.tsx'), 'Town'),
    adminOnly: false,
  },
  {
    path: '/operators',
    label: 'Operators',
    Screen: lazyScreen(() => import('./screens/Operators.tsx'), 'Operators'),
    adminOnly: true,
  },
] as const

/**
 * Follows the address bar: each screen has its own path (a query may say more), history works.
 * `visit` counts the moves: the screen is keyed by it, so opening a screen always mounts it afresh
 * and it reads its data again. (Keyed by path alone, a screen left for one still loading its chunk
 * and opened again before that one showed would be the old, hidden instance, with its old list.)
 */
function useLocation(): { path: string; visit: number } {
  const [location, setLocation] = useState(() => ({ path: window.location.pathname, visit: 0 }))
  useEffect(() => {
    const onPop = () => setLocation(({ visit }) => ({ path: window.location.pathname, visit: visit + 1 }))
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])
  return location
}

/** The console: sign-in, then the screens with the rebuild status above them. */
export function App() {
  // undefined: still asking the server; null: signed out.
  const [session, setSession] = useState<SessionView | null | undefined>(undefined)
  const signOutLocally = useCallback(() => setSession(null), [])

  useEffect(() => {
    api<SessionView>('/api/session').then(setSession, () => setSession(null))
    return onSignedOut(signOutLocally)
  }, [signOutLocally])

  if (session === undefined) return <p className="p-8 text-sm text-slate-500">Loading...</p>
  if (session === null) return <SignIn onSignedIn={setSession} />
  return (
    <LiveProvider onSessionLost={signOutLocally}>
      <TownProvider canEdit={session.role === 'admin'}>
        <Shell session={session} onSignOut={signOutLocally} />
      </TownProvider>
    </LiveProvider>
  )
}

function Shell({ session, onSignOut }: { session: SessionView; onSignOut: () => void }) {
  const isAdmin = session.role === 'admin'
  const screens = useMemo(() => allScreens.filter((screen) => !screen.adminOnly || isAdmin), [isAdmin])
  const { path, visit } = useLocation()
  const toast = useToast()
  const { connected, pendingSubmissions } = useLive()
  const { town } = useTown()
  const current = screens.find((screen) => screen.path === path) ?? allScreens[0]
  // On a phone the navigation folds behind a Menu button; from 640 px on it is always shown.
  const [menuOpen, setMenuOpen] = useState(false)

  // The page's title names the town once its settings are loaded (the sign-in screen is the console's alone).
  useEffect(() => {
    document.title = `${town.name} Console`
  }, [town.name])

  useEffect(() => {
    if (!screens.some((screen) => screen.path === path)) window.history.replaceState(null, '', current.path)
  }, [path, current.path, screens])

  async function signOut() {
    try {
      await api('/api/session', { method: 'DELETE' })
    } catch (error) {
      toast.error(errorMessage(error))
    }
    onSignOut()
  }

  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 bg-white">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <span className="font-bold tracking-tight">{town.name} Console</span>
          <button
            type="button"
            className="ml-auto rounded-md border border-slate-300 px-3 py-1.5 text-sm text-slate-700 sm:hidden"
            aria-expanded={menuOpen}
            aria-controls="screens-nav"
            onClick={() => setMenuOpen((open) => !open)}
          >
            Menu<span className="sr-only">: screens</span>
            {pendingSubmissions ? (
              <span className="ml-1.5 rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900">
                {pendingSubmissions}
                <span className="sr-only"> pending in the Inbox</span>
              </span>
            ) : null}
          </button>
          <nav
            id="screens-nav"
            aria-label="Screens"
            className={`${menuOpen ? 'flex' : 'hidden'} w-full flex-col gap-1 sm:flex sm:w-auto sm:flex-row sm:flex-wrap`}
          >
            {screens.map((screen) => (
              <a
                key={screen.path}
                href={screen.path}
                onClick={(event) => {
                  setMenuOpen(false)
                  follow(event, screen.path)
                }}
                aria-current={screen.path === current.path ? 'page' : undefined}
                className={`rounded-md px-3 py-1.5 text-sm ${screen.path === current.path ? 'bg-brand-50 font-semibold text-brand-700' : 'text-slate-600 hover:bg-slate-100'}`}
              >
                {screen.label}
                {screen.path === '/inbox' && pendingSubmissions ? (
                  <span
                    className="ml-1.5 rounded-full bg-amber-100 px-1.5 text-xs font-semibold text-amber-900"
                    data-testid="inbox-count"
                  >
                    {pendingSubmissions}
                    <span className="sr-only"> pending</span>
                  </span>
                ) : null}
              </a>
            ))}
          </nav>
          <div className="flex min-w-0 flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500 sm:ml-auto">
            <span title={connected ? 'Live updates connected' : 'Reconnecting to live updates'}>
              {connected ? '● live' : '○ reconnecting'}
            </span>
            <span data-testid="signed-in-as" className="break-all">
              {session.email} ({session.role})
            </span>
            <button type="button" className="underline hover:text-slate-800" onClick={() => void signOut()}>
              Sign out
            </button>
          </div>
        </div>
        <div className="mx-auto max-w-5xl px-4 pb-3">
          <RebuildPanel />
        </div>
      </header>
      <main className="mx-auto max-w-5xl px-4 py-6">
        <Suspense fallback={<p className="text-sm text-slate-500">Loading...</p>}>
          <current.Screen key={visit} />
        </Suspense>
      </main>
    </div>
  )
}
