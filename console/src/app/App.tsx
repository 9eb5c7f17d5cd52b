import { useCallback, useEffect, useMemo, useState } from 'react'
import { api, errorMessage, onSignedOut } from './api.ts'
import { follow } from './navigate.ts'
import { RebuildPanel } from './components/RebuildPanel.tsx'
import { useToast } from './components/Toaster.tsx'
import { LiveProvider, useLive } from './live.tsx'
import { TownProvider, useTown } from './town.tsx'
import { Attractions } from './screens/Attractions.tsx'
import { Businesses } from './screens/Businesses.tsx'
import { Crawler } from './screens/Crawler.tsx'
import { Events } from './screens/Events.tsx'
import { Inbox } from './screens/Inbox.tsx'
import { Jobs } from './screens/Jobs.tsx'
import { Migration } from './screens/Migration.tsx'
import { NeedsAttention } from './screens/NeedsAttention.tsx'
import { Today } from './screens/Today.tsx'
import { Operators } from './screens/Operators.tsx'
import { Town } from './screens/Town.tsx'
import { SignIn } from './screens/SignIn.tsx'
import type { SessionView } from '../shared/api.ts'

// Operators is for admins only: the server answers 403 to editors, and the app does not offer it.
// The console opens on Today: what needs doing now, each line leading to its screen.
const allScreens = [
  { path: '/today', label: 'Today', Screen: Today, adminOnly: false },
  { path: '/attention', label: 'Needs attention', Screen: NeedsAttention, adminOnly: false },
  { path: '/migration', label: 'Migration', Screen: Migration, adminOnly: false },
  { path: '/crawler', label: 'Crawler', Screen: Crawler, adminOnly: false },
  { path: '/businesses', label: 'Businesses', Screen: Businesses, adminOnly: false },
  { path: '/events', label: 'Events', Screen: Events, adminOnly: false },
  { path: '/inbox', label: 'Inbox', Screen: Inbox, adminOnly: false },
  { path: '/attractions', label: 'Attractions', Screen: Attractions, adminOnly: false },
  { path: '/jobs', label: 'Jobs', Screen: Jobs, adminOnly: false },
  { path: '/town', label: 'Town', Screen: Town, adminOnly: false },
  { path: '/operators', label: 'Operators', Screen: Operators, adminOnly: true },
] as const

/** Follows the address bar: each screen has its own path (a query may say more), history works. */
function usePath(): string {
  const [path, setPath] = useState(() => window.location.pathname)
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname)
    window.addEventListener('popstate', onPop)
    return () => window.removeEventListener('popstate', onPop)
  }, [])
  return path
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
  const path = usePath()
  const toast = useToast()
  const { connected, pendingSubmissions } = useLive()
  const { town } = useTown()
  const current = screens.find((screen) => screen.path === path) ?? allScreens[0]

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
          <nav aria-label="Screens" className="flex gap-1">
            {screens.map((screen) => (
              <a
                key={screen.path}
                href={screen.path}
                onClick={(event) => follow(event, screen.path)}
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
          <div className="ml-auto flex items-center gap-3 text-xs text-slate-500">
            <span title={connected ? 'Live updates connected' : 'Reconnecting to live updates'}>
              {connected ? '● live' : '○ reconnecting'}
            </span>
            <span data-testid="signed-in-as">
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
        <current.Screen />
      </main>
    </div>
  )
}
