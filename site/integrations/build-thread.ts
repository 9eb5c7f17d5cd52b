import { getHeapStatistics, setFlagsFromString } from 'node:v8'
import { Worker } from 'node:worker_threads'
import type {
  AstroIntegrationLogger,
  AstroPrerenderer,
  PrerenderRenderMetadata,
  PrerenderResult,
  RouteData,
} from 'astro'
import type { Catalog } from '@roland/scripts/catalog/types'
import { revive, type ThreadError } from './thread-error.ts'

// A build's threads. Astro renders pages one after another on one thread: at 100,000 businesses
// that alone took 170 s on a 2-core machine. A build therefore starts two more: the catalog reader
// (catalog-read.ts), and the build thread (build-thread-worker.ts), which renders a share of the
// pages through Astro's prerenderer hook (astro:build:start, setPrerenderer), with its own copy of
// the prerender bundle. It never holds the businesses: each page comes with the props the main
// thread's getStaticPaths() gave it, so the build's memory stays that of one copy of the catalog.
// Astro still writes every file and keeps its incremental cache, on the main thread.

/** A stylesheet of a page, as Astro's build keeps it (PageBuildData.styles). */
type PageStyles = unknown[]

/** The parts of the catalog every page may show: the header, the footer and the sidebars draw on them. */
export type SharedCatalog = Pick<Catalog, 'town' | 'categories' | 'attractions' | 'events' | 'pages' | 'alerts'>

export interface SetupRequest {
  type: 'setup'
  /** The file URL of the prerender bundle's entry. */
  entry: string
  /** Each page's stylesheets, by Astro's page key. */
  styles: Array<[string, PageStyles]>
  /** The scripts integrations inject (AstroSettings.scripts). */
  scripts: unknown[]
  catalog: SharedCatalog
}

export interface RenderRequest {
  type: 'render'
  id: number
  url: string
  /** routeKey() of the route. */
  route: string
  /** The page's entry of its route's getStaticPaths(), as the main thread has it. */
  path: { params: Record<string, string | undefined>; props: Record<string, unknown>; cacheKey?: string }
  collectMetadata: boolean
}

export type ToThread = SetupRequest | RenderRequest

export type FromThread =
  | { type: 'ready' }
  | { type: 'setup-failed'; error: ThreadError }
  | {
      type: 'rendered'
      id: number
      status: number
      statusText: string
      headers: Array<[string, string]>
      /** The page's text (null: no body). */
      body: string | null
      metadata: PrerenderRenderMetadata | undefined
    }
  | { type: 'render-failed'; id: number; error: ThreadError }

/** How a route is named across the threads: its pattern and its component. */
export const routeKey = (route: Pick<RouteData, 'route' | 'component'>) => `${route.route}\u0000${route.component}`

/**
 * At most this many pages wait or render on the build thread; Astro asks for 8 at a time
 * (astro.config.mjs), so the main thread renders the rest between writing the pages. About two
 * pages in three render there: the main thread also writes every page and keeps Astro's cache.
 * (Measured at 10,000 businesses: 6 of 8 gave the shortest build.)
 */
const sharedAtOnce = 6

/**
 * The build thread starts once this many pages it may render have rendered here: loading it costs
 * more than a rebuild's few changed pages (a business's, its pages of the lists: 79 at 10,000 and
 * at 100,000 businesses) and than a small town's whole site (the sample's 81 pages), and is soon
 * repaid by a full build's thousands.
 */
export const threadAfterPages = 150

/**
 * A page the build thread rendered, as Astro takes it: arrayBuffer() gives its text encoded once.
 * A Response's own copies its body three times over (undici copies its source, joins what it reads
 * of it, then copies that). The text crosses from the thread as a string: an ArrayBuffer sent there
 * counts as memory outside the main thread's heap until it is collected, and with those copies, at
 * 100,000 businesses, that memory's growth set off a full garbage collection every second or two,
 * each marking the whole catalog.
 */
export class RenderedResponse extends Response {
  readonly #text: string | null

  constructor(text: string | null, init: ResponseInit) {
    super(text, init)
    this.#text = text
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#text === null) return super.arrayBuffer()
    const bytes = encoder.encode(this.#text)
    return Promise.resolve(bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer)
  }
}

const encoder = new TextEncoder()

/** The build thread's heap limit: a third of the main thread's, and at least 256 MB. */
const threadHeapShare = 1 / 3
const threadHeapMinMb = 256

/**
 * The build thread's young generation, where a page's short-lived objects go. V8 starts a full
 * collection once the room left in the old generation is less than the young one: with the 128 MB
 * it gave this thread by default (and a live heap of about 25 MB), that was five times a second at
 * 100,000 businesses. With 32 MB, the thread's collections took about 30% less of its time, and its
 * memory 96 MB less.
 */
const threadYoungGenerationMb = 32

/** What the build thread starts with (build-thread-start.ts). */
export interface BuildThreadData {
  /** The process's --max-old-space-size as it started (0: V8's own limit), to set it back to. */
  heapFlagMb: number
}

/**
 * The --max-old-space-size this process started with, from its command line or NODE_OPTIONS (the
 * last one given counts, as for Node), or 0 when none was given: the flag's value then.
 */
export function startingHeapFlagMb(execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? ''): number {
  let mb = 0
  for (const arg of [...nodeOptions.split(/\s+/), ...execArgv]) {
    const given = /^--max[-_]old[-_]space[-_]size=(\d+)$/.exec(arg)
    if (given) mb = Number(given[1])
  }
  return mb
}

/** The build thread, as the main thread drives it. */
export class BuildThread {
  #worker: Worker
  #pending = new Map<number, { resolve: (result: PrerenderResult) => void; reject: (error: Error) => void }>()
  #nextId = 0
  #ready: { resolve: () => void; reject: (error: Error) => void } | null = null
  #stopped: Error | null = null

  constructor() {
    // The build thread holds little (the prerender bundle, the catalog's shared parts, a page's
    // props), but V8 lets a heap grow to its limit before it collects hard, and Node gives every
    // thread the main one's (--max-old-space-size, ROLAND_BUILD_HEAP_MB), whatever a worker's
    // resourceLimits say. Grown alike, the two heaps took the 100,000-business build past 2 GB. A
    // thread's limit is read when it starts, so this one starts under its own.
    // The thread sets the flag back as it starts (build-thread-start.ts).
    const mainHeapMb = Math.round(getHeapStatistics().heap_size_limit / 2 ** 20)
    setFlagsFromString(`--max-old-space-size=${Math.max(threadHeapMinMb, Math.round(mainHeapMb * threadHeapShare))}`)
    // No preloads (read-catalog-early.ts, a bench's): they are the build process's, not this thread's.
    this.#worker = new Worker(new URL('./build-thread-start.ts', import.meta.url), {
      execArgv: [],
      resourceLimits: { maxYoungGenerationSizeMb: threadYoungGenerationMb },
      workerData: { heapFlagMb: startingHeapFlagMb() } satisfies BuildThreadData,
    })
    // A failed build ends the process without waiting for it.
    this.#worker.unref()
    this.#worker.on('message', (message: FromThread) => {
      switch (message.type) {
        case 'ready':
          return this.#ready?.resolve()
        case 'setup-failed':
          return this.#ready?.reject(revive(message.error))
        case 'rendered': {
          const { id, status, statusText, headers, body, metadata } = message
          this.#pending
            .get(id)
            ?.resolve({ response: new RenderedResponse(body, { status, statusText, headers }), metadata })
          this.#pending.delete(id)
          return
        }
        case 'render-failed':
          this.#pending.get(message.id)?.reject(revive(message.error))
          this.#pending.delete(message.id)
      }
    })
    const stop = (error: Error) => {
      this.#stopped ??= error
      this.#ready?.reject(error)
      for (const { reject } of this.#pending.values()) reject(error)
      this.#pending.clear()
    }
    this.#worker.on('error', stop)
    this.#worker.on('exit', (code) => stop(new Error(`The build's second thread stopped (exit code ${code}).`)))
  }

  /** Loads the prerender bundle on the thread. */
  setup(request: Omit<SetupRequest, 'type'>): Promise<void> {
    if (this.#stopped) return Promise.reject(this.#stopped)
    const ready = new Promise<void>((resolve, reject) => (this.#ready = { resolve, reject }))
    this.#worker.postMessage({ type: 'setup', ...request } satisfies SetupRequest)
    return ready
  }

  /** Renders one page on the thread. */
  render(request: Omit<RenderRequest, 'type' | 'id'>): Promise<PrerenderResult> {
    if (this.#stopped) return Promise.reject(this.#stopped)
    const id = this.#nextId++
    const result = new Promise<PrerenderResult>((resolve, reject) => this.#pending.set(id, { resolve, reject }))
    this.#worker.postMessage({ type: 'render', id, ...request } satisfies RenderRequest)
    return result
  }

  get busy(): number {
    return this.#pending.size
  }

  async close(): Promise<void> {
    this.#stopped ??= new Error('The build thread was closed.')
    await this.#worker.terminate()
  }
}

/** Whether this build renders on one thread only (ROLAND_BUILD_THREADS=1). */
export function oneThread(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ROLAND_BUILD_THREADS?.trim() === '1'
}

/**
 * Whether the pages the build thread may render wait for it to load (ROLAND_BUILD_THREADS=2): then
 * it takes its share from the first, whatever the timing, as a test comparing it with the main
 * thread needs. Otherwise none waits, and it takes pages once it has loaded.
 */
export function threadFromFirstPage(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.ROLAND_BUILD_THREADS?.trim() === '2'
}

/** What the default prerenderer's app (Astro's BuildApp) tells of the build. */
interface BuildApp {
  getOptions(): {
    allPages: Record<string, { key: string; styles: PageStyles }>
    settings: { scripts: unknown[] }
  }
  /** Each route's getStaticPaths() result, keyed by its pathname (core/render/route-cache.js). */
  routeCache: {
    get(route: RouteData): { staticPaths?: { keyed: Map<string, RenderRequest['path']> } } | undefined
    clearAll(): void
  }
}

type BasePrerenderer = AstroPrerenderer & { app?: BuildApp }

/**
 * Lets go, once the build is done, of the paths the routes gave (getStaticPaths(), their props: the
 * whole catalog). Astro keeps them in a route cache for the prerender bundle's manifest, which that
 * bundle's module holds for as long as the process runs: a process that builds again
 * (build-server.ts) kept every earlier build's paths, 50 MB a build at 10,000 businesses.
 */
function forgetPaths(base: BasePrerenderer): void {
  base.app?.routeCache.clearAll()
}

/** Astro's default prerenderer as it is, but for the paths it keeps once done (forgetPaths): for a build on one thread. */
export function defaultPrerenderer(base: BasePrerenderer): AstroPrerenderer {
  return {
    name: 'roland:default',
    setup: async () => base.setup?.(),
    getStaticPaths: () => base.getStaticPaths(),
    render: (request, options) => base.render(request, options),
    async teardown() {
      await base.teardown?.()
      forgetPaths(base)
    },
  }
}

/**
 * The getStaticPaths() entry of the page a request asks for, as the main thread listed it, when the
 * page may render on the build thread; undefined when it renders here. A page with a cacheKey shows
 * nothing but its props and the catalog's shared parts (site/lib/build-cache.ts: the incremental
 * build already counts on it), and that is all the build thread has. Other pages (the home page,
 * the events) may show any business, and render here.
 */
function staticPathOf(app: BuildApp, request: Request, route: RouteData): RenderRequest['path'] | undefined {
  if (route.params.length === 0) return undefined
  const pathname = new URL(request.url).pathname.replace(/(.)\/$/, '$1')
  const path = app.routeCache.get(route)?.staticPaths?.keyed.get(pathname)
  return path?.cacheKey === undefined ? undefined : path
}

/**
 * Astro's default prerenderer, with pages shared with the build thread. The thread starts once
 * `threadAfterPages` pages it may render have rendered here, and loads the prerender bundle while
 * this thread goes on; from then on a page goes there while fewer than `sharedAtOnce` wait there,
 * else it renders here. No page waits for it to load. With `waitForThread`, it starts with the first
 * such page, which waits for it, and so does every such page after it. Endpoints (the search files,
 * the calendars) and pages without a cacheKey always render here.
 */
export function sharedPrerenderer(
  base: BasePrerenderer,
  startThread: () => BuildThread,
  entry: () => string | null,
  catalog: Promise<Catalog>,
  { waitForThread = false, log }: { waitForThread?: boolean; log: Pick<AstroIntegrationLogger, 'info' | 'warn'> },
): AstroPrerenderer {
  let thread: BuildThread | null = null
  // Set when the build is done: a thread still loading then is stopped, not failed.
  let closing = false
  let loading: Promise<void> | null = null
  let loaded = false
  let onThread = 0
  let here = 0
  let mayShare = 0
  const load = async (thread: BuildThread): Promise<void> => {
    const file = entry()
    const options = base.app?.getOptions()
    if (!file || !options) throw new Error('Astro gave no prerender bundle to load')
    const styles = Object.values(options.allPages).map((page): [string, PageStyles] => [page.key, page.styles])
    const { town, categories, attractions, events, pages, alerts } = await catalog
    await thread.setup({
      entry: file,
      styles,
      scripts: options.settings.scripts,
      catalog: { town, categories, attractions, events, pages, alerts },
    })
    loaded = true
  }
  const start = (): Promise<void> => {
    thread = startThread()
    return load(thread).catch((error) => {
      // The build goes on, on one thread: slower, never different.
      if (!closing) log.warn(`rendering every page on one thread: the second could not load them (${error})`)
    })
  }
  return {
    name: 'roland:shared',
    async setup() {
      await base.setup?.()
    },
    getStaticPaths: () => base.getStaticPaths(),
    async render(request, options) {
      const { routeData, collectMetadata = false } = options
      const path = routeData.type === 'page' && base.app ? staticPathOf(base.app, request, routeData) : undefined
      if (path !== undefined && (waitForThread || ++mayShare > threadAfterPages)) {
        loading ??= start()
        if (waitForThread) await loading
        if (loaded && thread && thread.busy < sharedAtOnce) {
          onThread++
          return thread.render({ url: request.url, route: routeKey(routeData), path, collectMetadata })
        }
      }
      here++
      return base.render(request, options)
    },
    async teardown() {
      await base.teardown?.()
      forgetPaths(base)
      closing = true
      await thread?.close()
      if (onThread > 0) log.info(`rendered ${onThread} of ${onThread + here} pages on the second thread`)
    },
  }
}
