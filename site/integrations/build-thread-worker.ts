// The build thread (build-thread.ts): renders the pages the main thread sends, with its own copy of
// the prerender bundle, one at a time. It holds no businesses: each page comes with its props.
import { AsyncLocalStorage } from 'node:async_hooks'
import { parentPort } from 'node:worker_threads'
import type { RouteData } from 'astro'
import { installRenderScope, renderForPrerender, type PrerenderableApp } from 'astro/app'
import type { Catalog } from '@roland/scripts/catalog/types'
import { setCatalogSource } from '../lib/catalog-slot.ts'
import { routeKey, type FromThread, type RenderRequest, type SetupRequest, type ToThread } from './build-thread.ts'
import { threadError } from './thread-error.ts'

const port = parentPort!
const send = (message: FromThread) => port.postMessage(message)

type StaticPath = RenderRequest['path']

/** The prerender bundle's app, as the default prerenderer drives it (astro/dist/core/build/app.js). */
interface BuildApp extends PrerenderableApp {
  manifest: { routes: Array<{ routeData: RouteData }> }
  setInternals(internals: unknown): void
  setOptions(options: unknown): void
  getComponentByRoute(route: RouteData): Promise<unknown>
  routeCache: {
    clearAll(): void
    set(route: RouteData, entry: { mod: unknown; staticPaths: StaticPath[] & { keyed: { get(): StaticPath } } }): void
  }
}

let app: BuildApp | null = null
let routes = new Map<string, RouteData>()

async function setup({ entry, styles, scripts, catalog }: SetupRequest) {
  // The pages' header, footer and sidebars read these; a page's businesses come in its props.
  const shared: Catalog = { ...catalog, businesses: [] }
  setCatalogSource(() => Promise.resolve(shared))
  app = ((await import(entry)) as { app: BuildApp }).app
  // What the app reads of Astro's build state while it renders: each page's stylesheets and the
  // scripts injected into every page's head (core/build/environment.js, headElements).
  app.setInternals({ pagesByKeys: new Map(styles.map(([key, pageStyles]) => [key, { styles: pageStyles }])) })
  app.setOptions({
    settings: { scripts },
    logger: {
      options: { destination: { write: (event: { message: string }) => (console.warn(event.message), true) } },
    },
  })
  routes = new Map(app.manifest.routes.map(({ routeData }) => [routeKey(routeData), routeData]))
  installRenderScope(new AsyncLocalStorage())
}

async function render({ id, url, route, path, collectMetadata }: RenderRequest) {
  const routeData = routes.get(route)
  if (!app || !routeData) throw new Error(`The build thread has no route ${route.replace('\u0000', ' in ')}`)
  // Astro looks the page's props up in its route cache (core/render/params-and-props.js): it finds
  // there the one entry the main thread's getStaticPaths() gave this page, instead of calling it.
  app.routeCache.clearAll()
  app.routeCache.set(routeData, {
    mod: await app.getComponentByRoute(routeData),
    staticPaths: Object.assign([path], { keyed: { get: () => path } }),
  })
  const { response, metadata } = await renderForPrerender(app, new Request(url), { routeData, collectMetadata })
  // A page is text, and goes as a string (build-thread.ts, RenderedResponse).
  const body = response.body === null ? null : await response.text()
  const { status, statusText } = response
  send({ type: 'rendered', id, status, statusText, headers: [...response.headers], body, metadata })
}

/**
 * Back to the event loop, to what it has waiting, before the next page. React's server renderer
 * leaves a last step of each render for later (setImmediate), and that step lets the render go.
 * The businesses list's pages, the categories' and the directory's render without waiting on
 * anything, and came one after another without this thread ever getting back to the loop: each of
 * their React renders (a card is one) stayed in memory, 6,300 of them 120 pages into the list at
 * 10,000 businesses, and at 100,000 the thread ran out of its heap (ERR_WORKER_OUT_OF_MEMORY) and
 * the build failed.
 */
const backToTheLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

// One page at a time: the route cache holds the page being rendered.
let queue = Promise.resolve()
port.on('message', (message: ToThread) => {
  if (message.type === 'setup') {
    queue = queue.then(() =>
      setup(message).then(
        () => send({ type: 'ready' }),
        (error) => send({ type: 'setup-failed', error: threadError(error) }),
      ),
    )
  } else {
    queue = queue.then(() =>
      render(message)
        .catch((error) => send({ type: 'render-failed', id: message.id, error: threadError(error) }))
        .then(backToTheLoop),
    )
  }
})
