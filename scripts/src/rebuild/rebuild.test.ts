import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { mkdtemp, readdir, readFile, rm, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { isProcessAlive } from '../lock-file.ts'
import { repoRoot } from '../paths.ts'
import { openEmbeddedStore, type EmbeddedStore } from '../store/embedded.ts'
import { freshStore, freshStoreIn, sampleStoreIn } from '../../test/support/fresh-store.ts'
import { childProcesses } from '../../../test/support/processes.ts'
import {
  buildHeapMb,
  buildLaunch,
  closeBuildStandby,
  importMetaEnvNames,
  RebuildError,
  runAstroBuild,
  type AstroBuildOptions,
} from './astro-build.ts'
import { claimBuildFolder } from './build-child.ts'
import { buildLog, prepareRebuild, rebuildMode, rebuildSite, runRebuild } from './rebuild.ts'

// The deploy hook is a third party: a small server on 127.0.0.1 stands in for it. The local build
// (astro build) is exercised end to end by the console's browser test, and below for two at once.

let hook: Server
let base = ''
let status = 200
const calls: Array<{ method: string; path: string; body: string; headers: Record<string, unknown> }> = []

beforeAll(async () => {
  hook = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    req.on('end', () => {
      calls.push({ method: req.method ?? '', path: req.url ?? '', body, headers: req.headers })
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'build queued' : 'hook not found')
    })
  })
  await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve))
  base = `http://127.0.0.1:${(hook.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise<void>((resolve) => hook.close(() => resolve()))
})

describe('rebuildMode', () => {
  test('calls the hook when REBUILD_HOOK_URL is set, else builds locally', () => {
    expect(rebuildMode({ REBUILD_HOOK_URL: 'https://api.example/build_hooks/abc' })).toBe('hook')
    expect(rebuildMode({ REBUILD_HOOK_URL: '  ' })).toBe('local')
    expect(rebuildMode({})).toBe('local')
  })

  test('refuses a REBUILD_HOOK_URL that is not an http(s) address, saying how to fix it', () => {
    expect(() => rebuildMode({ REBUILD_HOOK_URL: 'build-hook' })).toThrow(/REBUILD_HOOK_URL is not a URL/)
    expect(() => rebuildMode({ REBUILD_HOOK_URL: 'ftp://example.com/hook' })).toThrow(/must be an http\(s\) address/)
  })
})

describe('rebuildSite with a hook', () => {
  test('POSTs to the hook and reports its status', async () => {
    status = 200
    const lines: string[] = []
    const result = await rebuildSite({
      env: { REBUILD_HOOK_URL: `${base}/build_hooks/s3cret` },
      onLog: (line) => lines.push(line),
    })
    expect(result).toMatchObject({ mode: 'hook', status: 200 })
    expect(calls.at(-1)).toMatchObject({ method: 'POST', path: '/build_hooks/s3cret' })
    expect(JSON.parse(calls.at(-1)!.body)).toMatchObject({ trigger: 'roland' })
    expect(lines.join('\n')).toContain('build queued')
  })

  test('sends GitHub a repository_dispatch of type rebuild with the token', async () => {
    status = 200
    await rebuildSite({
      env: { REBUILD_HOOK_URL: `${base}/repos/roland-ar/site/dispatches`, REBUILD_HOOK_TOKEN: 'github_pat_test' },
    })
    const call = calls.at(-1)!
    expect(call).toMatchObject({ method: 'POST', path: '/repos/roland-ar/site/dispatches' })
    expect(call.headers).toMatchObject({
      authorization: 'Bearer github_pat_test',
      accept: 'application/vnd.github+json',
    })
    expect(JSON.parse(call.body)).toMatchObject({ event_type: 'rebuild' })
  })

  test('refuses a GitHub dispatch without a token, before calling', async () => {
    const before = calls.length
    await expect(rebuildSite({ env: { REBUILD_HOOK_URL: `${base}/repos/roland-ar/site/dispatches` } })).rejects.toThrow(
      /^REBUILD_HOOK_URL is a GitHub repository_dispatch address, which needs REBUILD_HOOK_TOKEN/,
    )
    expect(calls.length).toBe(before)
  })

  test('fails on a non-2xx answer without naming the hook’s secret path', async () => {
    status = 404
    const error = await rebuildSite({ env: { REBUILD_HOOK_URL: `${base}/build_hooks/s3cret` } }).catch(
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(RebuildError)
    expect((error as Error).message).toMatch(/answered HTTP 404 \(hook not found\): check REBUILD_HOOK_URL/)
    expect((error as Error).message).not.toContain('s3cret')
  })

  test('fails with what to check when nothing answers', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    await expect(rebuildSite({ env: { REBUILD_HOOK_URL: `http://127.0.0.1:${port}/hook` } })).rejects.toThrow(
      /Could not reach the rebuild hook at 127\.0\.0\.1:\d+ \(.*ECONNREFUSED.*\): check REBUILD_HOOK_URL/,
    )
  })
})

describe('runRebuild', () => {
  let store: EmbeddedStore
  beforeAll(async () => {
    store = await freshStore()
  })
  afterAll(async () => {
    await store.close()
  })

  test('records a succeeded rebuild job with its mode, trigger and result', async () => {
    status = 200
    const result = await runRebuild({
      store,
      env: { REBUILD_HOOK_URL: `${base}/hook` },
      trigger: 'manual',
      startedBy: 'test',
    })
    const [job] = await store.jobs.list(1)
    expect(job).toMatchObject({
      kind: 'rebuild',
      status: 'succeeded',
      started_by: 'test',
      params: { mode: 'hook', trigger: 'manual' },
    })
    expect(job!.result).toEqual(result)
    expect(job!.progress).toEqual({ phase: 'done', done: 1, total: 1 })
    expect(job!.log.map((line) => line.message).join('\n')).toContain('answered HTTP 200')
  })

  test('records a failed rebuild job with the reason', async () => {
    status = 500
    await expect(
      runRebuild({ store, env: { REBUILD_HOOK_URL: `${base}/hook` }, trigger: 'jobs', jobs: ['j1'] }),
    ).rejects.toThrow(RebuildError)
    const [job] = await store.jobs.list(1)
    expect(job).toMatchObject({ kind: 'rebuild', status: 'failed', params: { trigger: 'jobs', jobs: ['j1'] } })
    expect(job!.error).toMatch(/answered HTTP 500/)
  })
})

describe('a local build', () => {
  test('works in a folder no other build holds, the first one free: the same few names, build after build', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-build-folders-'))
    try {
      const builds = path.join(root, 'builds')
      // Five at once: each gets a folder of its own.
      const folders = await Promise.all(Array.from({ length: 5 }, () => claimBuildFolder(builds)))
      expect(folders.map((folder) => path.basename(folder)).sort()).toEqual([
        'build-1',
        'build-2',
        'build-3',
        'build-4',
        'build-5',
      ])
      // A build that ends removes its folder: the next one takes that name again.
      await rm(folders[1]!, { recursive: true })
      await expect(claimBuildFolder(builds)).resolves.toBe(folders[1])
      await expect(claimBuildFolder(builds)).resolves.toBe(path.join(builds, 'build-6'))
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  test("is never handed Vite's own names of import.meta.env, as Vitest sets them: its bundle is for production", () => {
    // Vitest's workers have DEV=1 (and PROD, SSR, MODE, BASE_URL); a shell or a caller may set others.
    vi.stubEnv('DEV', true)
    vi.stubEnv('PROD', false)
    vi.stubEnv('MODE', 'test')
    try {
      const launch = buildLaunch({ env: { SSR: '1', BASE_URL: '/', SITE: 'https://example.org' }, onLine: () => {} })
      for (const name of importMetaEnvNames) expect(launch.env, name).not.toHaveProperty(name)
      expect(launch.env.NODE_ENV).toBe('production')
      // What the build is given otherwise stays.
      expect(buildLaunch({ env: { SITE_URL: 'https://example.org' }, onLine: () => {} }).env.SITE_URL).toBe(
        'https://example.org',
      )
    } finally {
      vi.unstubAllEnvs()
    }
  })

  test('runs beside another one, each from its own data folder (a relative one too) into its own site', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-two-builds-'))
    try {
      const sites = ['Big Rock Coffee', 'Lakeview Marina'].map((name) => ({
        name,
        dataDir: path.join(root, `${name.split(' ')[0]!.toLowerCase()}-data`),
        outDir: path.join(root, `${name.split(' ')[0]!.toLowerCase()}-site`),
      }))
      for (const { name, dataDir } of sites) {
        const store = await freshStoreIn(dataDir)
        await store.db.query(
          `insert into businesses (slug, name, category, address) values ($1, $2, 'Dining & Refreshments', '1 Main St, Roland, AR 72135')`,
          [name.toLowerCase().replaceAll(' ', '-'), name],
        )
        await store.close()
      }
      const results = await Promise.allSettled(
        sites.map(({ dataDir, outDir }, index) =>
          rebuildSite({
            env: {
              SUPABASE_URL: '',
              // A site to publish, whatever NODE_ENV the process that builds it has.
              NODE_ENV: 'development',
              // The second names its data folder relative to this process's directory.
              ROLAND_DATA_DIR: index === 0 ? dataDir : path.relative(process.cwd(), dataDir),
              ROLAND_OUT_DIR: outDir,
            },
          }),
        ),
      )
      expect(results.map((result) => (result.status === 'rejected' ? String(result.reason) : 'built'))).toEqual([
        'built',
        'built',
      ])
      for (const { name, outDir } of sites) {
        await expect(readFile(path.join(outDir, 'businesses', 'index.html'), 'utf8')).resolves.toContain(name)
        // React's production build in the islands: its development build warns of a list without keys.
        const bundles = (await readdir(path.join(outDir, '_astro'))).filter((file) => file.endsWith('.js'))
        expect(bundles.length).toBeGreaterThan(0)
        for (const file of bundles) {
          expect(await readFile(path.join(outDir, '_astro', file), 'utf8'), file).not.toContain('unique "key" prop')
        }
      }
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  }, 240_000)

  test('builds again in the process the last build kept, with its own settings; a build that fails leaves none kept', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-reused-builds-'))
    try {
      const dataDirs: Record<string, string> = {}
      for (const name of ['Big Rock Coffee', 'Lakeview Marina']) {
        const dataDir = path.join(root, `${name.split(' ')[0]!.toLowerCase()}-data`)
        const store = await freshStoreIn(dataDir)
        await store.db.query(
          `insert into businesses (slug, name, category, address) values ($1, $2, 'Dining & Refreshments', '1 Main St, Roland, AR 72135')`,
          [name.toLowerCase().replaceAll(' ', '-'), name],
        )
        await store.close()
        dataDirs[name] = dataDir
      }
      const build = async (site: string, env: NodeJS.ProcessEnv) => {
        const lines: string[] = []
        const code = await runAstroBuild({
          env: { SUPABASE_URL: '', ROLAND_OUT_DIR: path.join(root, site), ...env },
          onLine: (line) => lines.push(line),
          reuse: true,
        })
        return { code, output: lines.join('\n') }
      }
      const again = /\[roland:build-server\] build (\d+) of this process/
      const page = (site: string) => readFile(path.join(root, site, 'businesses', 'index.html'), 'utf8')

      const first = await build('first', {
        ROLAND_DATA_DIR: dataDirs['Big Rock Coffee'],
        SITE_URL: 'https://first.example',
      })
      expect(first.code, first.output).toBe(0)
      expect(first.output).not.toMatch(again)
      // The next build runs in the same process, with its own data, its own address, and no setting of the first's.
      const second = await build('second', { ROLAND_DATA_DIR: dataDirs['Lakeview Marina'] })
      expect(second.code, second.output).toBe(0)
      expect(second.output.match(again)?.[1]).toBe('2')
      expect(await page('second')).toContain('Lakeview Marina')
      expect(await page('second')).not.toContain('Big Rock Coffee')
      expect(await page('second')).not.toContain('first.example')
      expect(await page('first')).toContain('https://first.example/businesses')

      // A build that fails (its catalog cannot be read) ends its process: the next starts a fresh one.
      const failed = await build('failed', { SUPABASE_URL: 'http://127.0.0.1:9', SUPABASE_SECRET_KEY: 'sb_secret_x' })
      expect(failed.code, failed.output).not.toBe(0)
      const third = await build('third', { ROLAND_DATA_DIR: dataDirs['Big Rock Coffee'] })
      expect(third.code, third.output).toBe(0)
      expect(third.output).not.toMatch(again)
      expect(await page('third')).toContain('Big Rock Coffee')
    } finally {
      await closeBuildStandby()
      await rm(root, { recursive: true, force: true })
    }
  }, 240_000)
})

describe('a process kept for reuse', () => {
  test('lets go of each build’s catalog once the next build is done: no business of it is held after', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-kept-catalogs-'))
    try {
      const dataDir = path.join(root, 'data')
      expect(await sampleStoreIn(dataDir)).toBe(true)
      // Loaded into the build's process: as each build starts, it holds weakly the last build's
      // catalog and one of its businesses (a route's paths hold them), and says how many of those
      // of the builds before the last are still held once all garbage is collected.
      const watch = path.join(root, 'watch-catalogs.mjs')
      await writeFile(
        watch,
        `const held = []
process.on('message', (message) => {
  if (message?.type !== 'build') return
  const earlier = held.slice()
  setTimeout(() => {
    globalThis.gc()
    const alive = earlier.filter((refs) => refs.some((ref) => ref.deref() !== undefined)).length
    console.log('[kept-catalogs] ' + alive + ' of ' + earlier.length)
  }, 0)
  const read = globalThis[Symbol.for('roland.site.catalog-read')]
  void read?.catalog.then((catalog) => held.push([new WeakRef(catalog), new WeakRef(catalog.businesses[0])]))
})
`,
      )
      const build = async () => {
        const lines: string[] = []
        const code = await runAstroBuild({
          env: { SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir, ROLAND_OUT_DIR: path.join(root, 'site') },
          onLine: (line) => lines.push(line),
          execArgv: ['--expose-gc', '--import', watch],
          reuse: true,
        })
        expect(code, lines.join('\n')).toBe(0)
        return lines.join('\n')
      }
      await build()
      expect(await build()).toContain('[kept-catalogs] 0 of 0')
      // The first build's catalog: gone, now that the second's replaced it.
      const third = await build()
      expect(third).toMatch(/build 3 of this process/)
      expect(third).toContain('[kept-catalogs] 0 of 1')
    } finally {
      await closeBuildStandby()
      await rm(root, { recursive: true, force: true })
    }
  }, 240_000)

  test('builds again from the record of the pages it wrote last, unless another build has written one since', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-kept-record-'))
    try {
      const dataDir = path.join(root, 'data')
      expect(await sampleStoreIn(dataDir)).toBe(true)
      const env = { SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir, ROLAND_OUT_DIR: path.join(root, 'site') }
      const build = async (reuse: boolean) => {
        const lines: string[] = []
        const code = await runAstroBuild({ env, onLine: (line) => lines.push(line), reuse })
        expect(code, lines.join('\n')).toBe(0)
        return lines.join('\n')
      }
      /** Gives Big Rock Coffee this short description; resolves to the one it had. */
      const describeCoffee = async (text: string) => {
        const store = await openEmbeddedStore({ dir: dataDir })
        try {
          const { rows } = await store.db.query<{ before: string }>(
            `update businesses b set short_description = $1
             from (select short_description as before from businesses where slug = 'big-rock-coffee') s
             where b.slug = 'big-rock-coffee' returning s.before`,
            [text],
          )
          return rows[0]!.before
        } finally {
          await store.close()
        }
      }
      const page = () => readFile(path.join(root, 'site', 'business', 'big-rock-coffee', 'index.html'), 'utf8')

      // Kept once built: Astro's record of the pages it rendered and their keys stays in its memory.
      await build(true)
      // Another process builds the same site meanwhile, with the page changed, and writes its own record.
      // It reads the record the first build wrote: the pages that do not show the business are kept.
      const original = await describeCoffee('Changed by another build.')
      const other = await build(false)
      expect(await page()).toContain('Changed by another build.')
      expect(other.match(/\(cached\)/g)?.length ?? 0, other).toBeGreaterThan(40)
      // Back as it was: the page's key is again the one the kept process recorded, but the page
      // published is the other build's. The kept process reads the record on disk, and renders it.
      await describeCoffee(original)
      expect(await build(true)).toMatch(/build 2 of this process/)
      expect(await page()).not.toContain('Changed by another build.')
      expect(await page()).toContain(original.replaceAll('&', '&amp;').replaceAll("'", '&#39;'))
    } finally {
      await closeBuildStandby()
      await rm(root, { recursive: true, force: true })
    }
  }, 240_000)

  test('that ends with the process that kept it leaves the folder of its last build to the build that claimed it since', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-kept-ends-'))
    const claimed: string[] = []
    try {
      const dataDir = path.join(root, 'data')
      expect(await sampleStoreIn(dataDir)).toBe(true)
      // A process that builds two sites, the second in the process the first kept (and in a folder
      // of its own, which it then removes), and ends without ending that process: a test worker
      // that ends, say. The kept process then learns it is alone (its channel closes) and ends too.
      const script = path.join(root, 'two-builds.ts')
      await writeFile(
        script,
        `import { runAstroBuild } from ${JSON.stringify(pathToFileURL(path.join(import.meta.dirname, 'astro-build.ts')).href)}
for (const site of ['one', 'two']) {
  const env = { SUPABASE_URL: '', ROLAND_DATA_DIR: ${JSON.stringify(dataDir)}, ROLAND_OUT_DIR: ${JSON.stringify(root)} + '/' + site }
  const lines: string[] = []
  const code = await runAstroBuild({ env, onLine: (line) => lines.push(line), reuse: true })
  if (code !== 0) {
    process.stderr.write(lines.join('\\n'))
    process.exit(1)
  }
}
process.stdout.write('built\\n')
process.stdin.once('data', () => process.exit(0))
`,
      )
      const child = spawn(process.execPath, [script], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'pipe'] })
      let errors = ''
      child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')))
      const exited = new Promise<number | null>((resolve) => child.once('close', resolve))
      await new Promise<void>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          if (chunk.toString('utf8').includes('built')) resolve()
        })
        void exited.then((code) =>
          reject(new Error(`The two builds ended with ${code} before they were done: ${errors}`)),
        )
      })
      // Its one child: the process kept for reuse.
      const kept = childProcesses(child.pid!)
      expect(kept.length).toBe(1)
      // Other builds claim folders, the one the second build ran in among them (the first ones free).
      for (let i = 0; i < 40; i++) {
        const folder = await claimBuildFolder(path.join(repoRoot, '.astro', 'builds'))
        claimed.push(folder)
        await writeFile(path.join(folder, 'claimed'), 'another build works here')
      }
      child.stdin.end('end')
      expect(await exited).toBe(0)
      // The kept process ends once its channel closes: each folder it left stays as its holder made it.
      while (isProcessAlive(kept[0]!)) await sleep(20)
      for (const folder of claimed) expect(existsSync(path.join(folder, 'claimed')), folder).toBe(true)
    } finally {
      await Promise.all(claimed.map((folder) => rm(folder, { recursive: true, force: true })))
      await rm(root, { recursive: true, force: true })
    }
  }, 240_000)
})

/**
 * A data folder with Big Rock Coffee in it, its store held open, and where its site goes: made
 * before the tests of the describe it is called in, removed after them.
 */
function siteWithStore(prefix: string) {
  const site = {
    root: '',
    env: {} as NodeJS.ProcessEnv,
    store: undefined as unknown as EmbeddedStore,
    page: () => readFile(path.join(site.root, 'site', 'business', 'big-rock-coffee', 'index.html'), 'utf8'),
    describe: (text: string) =>
      site.store.db.query(`update businesses set short_description = $1 where slug = 'big-rock-coffee'`, [text]),
  }
  beforeAll(async () => {
    site.root = await mkdtemp(path.join(tmpdir(), prefix))
    const dataDir = path.join(site.root, 'data')
    site.env = { SUPABASE_URL: '', ROLAND_DATA_DIR: dataDir, ROLAND_OUT_DIR: path.join(site.root, 'site') }
    site.store = await freshStoreIn(dataDir)
    await site.store.db.query(
      `insert into businesses (slug, name, category, address, short_description)
       values ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments', '1 Main St, Roland, AR 72135', 'Espresso by the lake.')`,
    )
    // No build's process waits from an earlier test.
    await closeBuildStandby()
  })
  afterAll(async () => {
    await closeBuildStandby()
    await site.store.close()
    await rm(site.root, { recursive: true, force: true })
  })
  return site
}

describe('a local rebuild with the store open (the console’s, the CLI’s)', () => {
  const site = siteWithStore('roland-rebuild-open-')
  const { page, describe } = site
  // A build as the console runs it, its lines (from this one only) in `lines`.
  const lines: string[] = []
  const consoleBuild = (options: Partial<AstroBuildOptions> = {}) => {
    lines.length = 0
    return runAstroBuild({
      env: site.env,
      onLine: (line) => lines.push(line),
      catalog: () => site.store.loadCatalog(),
      standby: true,
      ...options,
    })
  }

  test('reads the catalog from the store and hands it to the build, which never opens the database', async () => {
    // The store stays open here, holding the embedded database: a build that opened it too would
    // wait for it, then fail.
    await runRebuild({ store: site.store, env: site.env, trigger: 'cli' })
    await expect(page()).resolves.toContain('Espresso by the lake.')
  }, 120_000)

  test('a catalog that cannot be read fails the build with its message, and leaves the site as it was', async () => {
    const before = await page()
    const code = await consoleBuild({
      catalog: () => Promise.reject(new Error('Could not read the catalog from the test: the disk is on fire')),
      standby: false,
    })
    expect(code).not.toBe(0)
    expect(lines.join('\n')).toContain('the disk is on fire')
    await expect(page()).resolves.toBe(before)
  }, 120_000)

  test('keeps the next build’s process ready, which reads the data only once started', async () => {
    expect(await consoleBuild()).toBe(0)
    expect(lines.join('\n')).not.toContain('[roland:standby] started')
    // Changed once the next build's process has started: it must still see the change.
    await describe('Now roasting on site.')
    expect(await consoleBuild()).toBe(0)
    expect(lines.join('\n')).toMatch(
      /\[roland:standby\] started, with Astro loaded: this build's process waited [\d.]+ s/,
    )
    await expect(page()).resolves.toContain('Now roasting on site.')

    // Other settings: a fresh process, with them.
    expect(await consoleBuild({ env: { ...site.env, SITE_URL: 'https://roland.example' }, standby: false })).toBe(0)
    expect(lines.join('\n')).not.toContain('[roland:standby] started')
    await expect(page()).resolves.toContain('https://roland.example/business/big-rock-coffee')
  }, 180_000)

  test('a build whose process ends well before Astro says it is complete fails, and leaves the site as it was', async () => {
    const before = await page()
    // A process whose work stops with nothing left waiting on it ends with exit 0, as this one does.
    const exitEarly = path.join(site.root, 'exit-early.mjs')
    await writeFile(exitEarly, 'setTimeout(() => process.exit(0), 0)\n')
    expect(await consoleBuild({ execArgv: ['--import', exitEarly], standby: false })).toBe(1)
    expect(lines.join('\n')).toContain(
      "[roland:rebuild] The site build's process ended (exit 0) before Astro said the build was complete: nothing was published.",
    )
    await expect(page()).resolves.toBe(before)
  }, 120_000)

  test('starts a fresh process when a module the one on standby loaded has changed since', async () => {
    // A module every build of these loads (as a bench's memory report is): changed once one is on standby.
    const preload = path.join(site.root, 'preload.mjs')
    await writeFile(preload, 'export {}\n')
    const build = () => consoleBuild({ execArgv: ['--import', preload] })
    expect(await build()).toBe(0)
    await describe('Open late on Fridays.')
    const later = new Date(Date.now() + 5_000)
    await utimes(preload, later, later)
    expect(await build()).toBe(0)
    let log = lines.join('\n')
    expect(log).toContain(`${preload} changed since the build's process started ahead: starting a fresh one`)
    expect(log).not.toContain('[roland:standby] started')
    await expect(page()).resolves.toContain('Open late on Fridays.')

    // A process put back on standby once its build is done checks the same when started again.
    const earlier = new Date(Date.now() - 60_000)
    await utimes(preload, earlier, earlier)
    expect(await build()).toBe(0)
    expect(lines.join('\n')).toMatch(/\[roland:standby\] started, with Astro loaded/)
    await describe('Closed on Sundays.')
    const later2 = new Date(Date.now() + 10_000)
    await utimes(preload, later2, later2)
    expect(await build()).toBe(0)
    log = lines.join('\n')
    expect(log).toContain(`${preload} changed since the build's process started ahead: starting a fresh one`)
    expect(log).not.toContain('[roland:standby] started')
    await expect(page()).resolves.toContain('Closed on Sundays.')
  }, 180_000)
})

describe('a rebuild readied while the console waits to run it (prepareRebuild)', () => {
  const site = siteWithStore('roland-rebuild-ready-')
  const { page, describe } = site

  test('starts its process on standby and hands it the catalog ahead: the rebuild reads only what changed since', async () => {
    const { store } = site
    // The build's profile says whether it used the catalog handed ahead.
    const env = { ...site.env, ROLAND_BUILD_PROFILE: '1' }
    const options = { store, env, standby: true }
    const lines: string[] = []
    const rebuild = async () => {
      lines.length = 0
      await rebuildSite({ ...options, onLog: (line) => lines.push(line) })
      return lines.join('\n')
    }
    await describe('Now roasting on site.')
    await prepareRebuild(options)
    // Changed again in the quiet window, and readied again: the catalog handed ahead is replaced.
    await describe('Roasting on Tuesdays.')
    await prepareRebuild(options)
    let log = await rebuild()
    expect(log).toMatch(/\[roland:standby\] started, with Astro loaded/)
    expect(log).toContain('[roland:rebuild] Read the catalog again: no business changed since its last read')
    expect(log).toMatch(/catalog handover: as read ahead/)
    await expect(page()).resolves.toContain('Roasting on Tuesdays.')

    await describe('Now roasting on site.')
    await prepareRebuild(options)
    // Changed after the catalog was handed ahead: the rebuild must still publish it.
    await describe('Open late on Fridays.')
    log = await rebuild()
    // In the process of the last rebuild, put back on standby once its build was done.
    expect(log).toContain(
      "[roland:standby] started again, with Astro and the site's modules loaded: build 2 of this process",
    )
    expect(log).toContain('[roland:rebuild] Read the catalog again for the 1 business changed since its last read')
    expect(log).not.toContain('Read the whole catalog')
    expect(log).toMatch(/catalog handover: the file came/)
    await expect(page()).resolves.toContain('Open late on Fridays.')

    // Back on standby a second time, in the folder it started in (the last build's is gone): it
    // reads the catalog handed ahead, its reader a thread it starts there, and the rebuild finds it read.
    await describe('Open late on Saturdays.')
    await prepareRebuild(options)
    log = await rebuild()
    expect(log).toContain('build 3 of this process')
    expect(log).toMatch(/catalog handover: as read ahead/)
    await expect(page()).resolves.toContain('Open late on Saturdays.')

    // With a deploy hook, no process starts here, and nothing is read.
    await closeBuildStandby()
    await describe('Closed Mondays.')
    await prepareRebuild({ ...options, env: { ...env, REBUILD_HOOK_URL: `${base}/build_hooks/s3cret` } })
    lines.length = 0
    await rebuildSite({ ...options, standby: false, onLog: (line) => lines.push(line) })
    expect(lines.join('\n')).toContain(
      '[roland:rebuild] Read the catalog again for the 1 business changed since its last read',
    )
    expect(lines.join('\n')).not.toContain('[roland:standby] started')
  }, 180_000)
})

describe('the memory of a local build', () => {
  test('a build that runs out of its heap (ROLAND_BUILD_HEAP_MB) says so, how to raise it, and publishes nothing', async () => {
    const root = await mkdtemp(path.join(tmpdir(), 'roland-build-heap-'))
    try {
      const outDir = path.join(root, 'site')
      const env = { SUPABASE_URL: '', ROLAND_DATA_DIR: path.join(root, 'data'), ROLAND_OUT_DIR: outDir }
      await expect(rebuildSite({ env: { ...env, ROLAND_BUILD_HEAP_MB: '32' } })).rejects.toThrow(
        /^The site build ran out of memory: its heap may take 32 MB\. Set ROLAND_BUILD_HEAP_MB higher \(e\.g\. 4096\)/,
      )
      await expect(readFile(path.join(outDir, 'index.html'))).rejects.toThrow(/ENOENT/)
      await expect(rebuildSite({ env: { ...env, ROLAND_BUILD_HEAP_MB: 'lots' } })).rejects.toThrow(
        'ROLAND_BUILD_HEAP_MB is "lots": set it to a whole number of megabytes (e.g. 4096), or unset it for 1024.',
      )
    } finally {
      await rm(root, { recursive: true, force: true })
    }
  })

  test('is 1024 MB unless ROLAND_BUILD_HEAP_MB says otherwise', () => {
    expect(buildHeapMb({})).toBe(1024)
    expect(buildHeapMb({ ROLAND_BUILD_HEAP_MB: ' 4096 ' })).toBe(4096)
    expect(() => buildHeapMb({ ROLAND_BUILD_HEAP_MB: '1.5' })).toThrow(RebuildError)
  })
})

describe('buildLog', () => {
  test("tells each run of Astro's page lines as one line, and passes the others on", () => {
    const lines: string[] = []
    const log = buildLog((line) => lines.push(line))
    for (const line of [
      ' generating static routes ',
      '▶ src/pages/business/[slug].astro',
      '  ├─ /business/a/index.html (+2ms)',
      '  ├─ /business/b/index.html (cached)',
      '  ├─ /business/c/index.html (restored)',
      // A page's name, then another page's line before its end, which comes on a line of its own.
      '  ├─ /business/d/index.html  ├─ /business/e/index.html (cached)',
      ' (+12ms) ',
      // The pages kept in place beyond the first thousand, counted (Astro's patched generate.js).
      '  ├─ 1200 more page(s) kept as they were (cached)',
      // That count on the line of a page being rendered, whose time comes on the next.
      '  ├─ /business/f/index.html  ├─ 300 more page(s) kept as they were (cached)',
      ' (+5ms) ',
      '▶ src/pages/index.astro',
      '  └─ /index.html (+11ms)',
    ])
      log.line(line)
    log.end()
    expect(lines).toEqual([
      ' generating static routes ',
      '▶ src/pages/business/[slug].astro',
      '  1506 page(s): 3 rendered, 1503 unchanged',
      '▶ src/pages/index.astro',
      '  1 page(s): 1 rendered, 0 unchanged',
    ])
  })
})
