import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { PrerenderResult } from 'astro'
import type { Catalog } from '@roland/scripts/catalog/types'
import { renameBusiness } from '../../test/support/catalog-changes.ts'
import {
  BuildThread,
  RenderedResponse,
  sharedPrerenderer,
  startingHeapFlagMb,
  threadAfterPages,
} from './build-thread.ts'
import { catalogRead, forgetCatalogRead } from './catalog-read.ts'

// A build's catalog, read on the catalog reader's thread (catalog-reader.ts) once per process.
describe('the catalog a build reads', () => {
  let dir = ''
  const nameIn = async (catalog: Promise<Catalog>) =>
    (await catalog).businesses.find((b) => b.slug === 'big-rock-coffee')?.name

  beforeEach(async () => {
    vi.stubEnv('SUPABASE_URL', '')
    dir = await mkdtemp(path.join(os.tmpdir(), 'roland-catalog-read-'))
    vi.stubEnv('ROLAND_DATA_DIR', dir)
  })
  afterEach(async () => {
    forgetCatalogRead()
    vi.unstubAllEnvs()
    await rm(dir, { recursive: true, force: true })
  })

  test('is read once, from the start, for every page', async () => {
    const first = catalogRead()
    expect(await nameIn(first)).toBe('Big Rock Coffee')
    await renameBusiness(dir, 'big-rock-coffee', 'Big Rock Coffee & Bakery')
    expect(catalogRead()).toBe(first)
  })

  test('comes in list order, and a read that failed fails the page that asks, with its message', async () => {
    const names = (await catalogRead()).businesses.map((b) => b.name)
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')))
    forgetCatalogRead()
    // A data folder that is a file: the embedded database cannot open there.
    const file = path.join(dir, 'not-a-folder')
    await writeFile(file, '')
    vi.stubEnv('ROLAND_DATA_DIR', file)
    await expect(catalogRead()).rejects.toThrow(/Could not read the catalog from/)
  })
})

// Astro's default prerenderer, as sharedPrerenderer sees it: an app with one route of pages that
// each have a cacheKey (what the build thread may render), and a render of its own.
describe('the build thread, started late', () => {
  const route = {
    route: '/business/[slug]',
    component: 'site/pages/business/[slug].astro',
    params: ['slug'],
    type: 'page',
  }
  // More than the thread waits for before it starts (threadAfterPages).
  const paths = new Map(
    Array.from({ length: threadAfterPages + 16 }, (_, i) => [
      `/business/b${i}`,
      { params: { slug: `b${i}` }, props: {}, cacheKey: `k${i}` },
    ]),
  )
  const base = {
    name: 'astro:default',
    getStaticPaths: async () => [],
    render: async () => ({ response: new Response('here') }),
    app: {
      getOptions: () => ({ allPages: {}, settings: { scripts: [] } }),
      routeCache: { get: () => ({ staticPaths: { keyed: paths } }), clearAll: vi.fn() },
    },
  }
  const bodyOf = (result: PrerenderResult | Response) => ('response' in result ? result.response : result).text()
  const catalog = Promise.resolve({ categories: [], attractions: [], events: [], businesses: [] } as unknown as Catalog)

  test('is stopped without a warning when the pages are done before it has loaded', async () => {
    const log = { info: vi.fn(), warn: vi.fn() }
    // A bundle that never finishes loading: the thread is still loading it when the build ends.
    const neverLoads = `data:text/javascript,${encodeURIComponent('await new Promise(() => {})')}`
    const prerenderer = sharedPrerenderer(
      base,
      () => new BuildThread(),
      () => neverLoads,
      catalog,
      { log },
    )
    await prerenderer.setup?.()
    for (const pathname of paths.keys()) {
      const response = await prerenderer.render(new Request(`http://localhost${pathname}`), {
        routeData: route as never,
      })
      expect(await bodyOf(response)).toBe('here')
    }
    expect(base.app.routeCache.clearAll).not.toHaveBeenCalled()
    await prerenderer.teardown?.()
    expect(log.warn).not.toHaveBeenCalled()
    expect(log.info).not.toHaveBeenCalled()
    // The routes' paths (their props: the catalog) are let go once the pages are done.
    expect(base.app.routeCache.clearAll).toHaveBeenCalledOnce()
  })

  test('says so when it cannot load the bundle, and the pages render here', async () => {
    const log = { info: vi.fn(), warn: vi.fn() }
    const missing = new URL('./no-such-bundle.mjs', import.meta.url).href
    const prerenderer = sharedPrerenderer(
      base,
      () => new BuildThread(),
      () => missing,
      catalog,
      {
        log,
        waitForThread: true,
      },
    )
    await prerenderer.setup?.()
    const response = await prerenderer.render(new Request('http://localhost/business/b1'), {
      routeData: route as never,
    })
    expect(await bodyOf(response)).toBe('here')
    await prerenderer.teardown?.()
    expect(log.warn).toHaveBeenCalledWith(
      expect.stringMatching(/rendering every page on one thread: the second could not load them/),
    )
  })
})

describe("the build thread's heap", () => {
  test('the process started with the last --max-old-space-size given, on its command line or in NODE_OPTIONS, else none (0)', () => {
    expect(startingHeapFlagMb([], '')).toBe(0)
    expect(startingHeapFlagMb(['--max-old-space-size=1216', '--import', 'hook.ts'], '')).toBe(1216)
    expect(startingHeapFlagMb([], '--trace-warnings --max_old_space_size=512')).toBe(512)
    expect(startingHeapFlagMb(['--max-old-space-size=900'], '--max-old-space-size=512')).toBe(900)
  })

  test("leaves the threads started after it the process's own limit, as they had before it", async () => {
    // The flag is the process's: the build thread starts under its share and sets it back
    // (build-thread-start.ts), to the value the process started with, which V8's compile cache
    // hashes with every module's code.
    const limitOfANewThread = () =>
      new Promise<number>((resolve, reject) => {
        const probe = new Worker(
          "require('node:worker_threads').parentPort.postMessage(require('node:v8').getHeapStatistics().heap_size_limit)",
          { eval: true },
        )
        probe.once('message', (limit: number) => void probe.terminate().then(() => resolve(limit)))
        probe.once('error', reject)
      })
    const before = await limitOfANewThread()
    const thread = new BuildThread()
    try {
      // Set back as the thread starts, which this waits for (the test's timeout bounds it).
      while ((await limitOfANewThread()) !== before) await sleep(20)
    } finally {
      await thread.close()
    }
    expect(await limitOfANewThread()).toBe(before)
  })
})

// A page the build thread rendered, as Astro reads it (generate.js: Buffer.from(await response.arrayBuffer())).
describe('a page from the build thread', () => {
  const text = '<!doctype html><title>Café Ünïcode ☕</title>'

  test('gives its text encoded as UTF-8, as a body of its own, with its status and headers', async () => {
    const response = new RenderedResponse(text, {
      status: 404,
      statusText: 'Not Found',
      headers: [['content-type', 'text/html']],
    })
    const bytes = await response.arrayBuffer()
    expect(bytes).toBeInstanceOf(ArrayBuffer)
    expect(Buffer.from(bytes).toString('utf8')).toBe(text)
    expect(bytes.byteLength).toBe(Buffer.byteLength(text))
    expect([response.status, response.statusText, response.headers.get('content-type')]).toEqual([
      404,
      'Not Found',
      'text/html',
    ])
    // Read as a stream, it is the same text.
    expect(response.body).not.toBeNull()
    expect(await new Response(response.body).text()).toBe(text)
  })

  test('without a body has none', async () => {
    const response = new RenderedResponse(null, { status: 301, headers: [['location', '/businesses']] })
    expect(response.body).toBeNull()
    expect((await response.arrayBuffer()).byteLength).toBe(0)
  })
})
