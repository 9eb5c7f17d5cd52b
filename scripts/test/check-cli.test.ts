import { execFile } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  checkCases,
  loadCheckCatalog,
  startCheckSites,
  type CheckCase,
  type CheckSites,
} from './check-fixture-sites.ts'
import { freshStoreIn } from './support/fresh-store.ts'

// `roland check` as other tools use it: a real process over its own embedded database, checking a
// catalog whose websites are local fixture servers covering every case (issue 28, "Done when").

const run = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
let sites: CheckSites
let cases: CheckCase[]
let dataDir: string

beforeAll(async () => {
  sites = await startCheckSites()
  cases = checkCases(sites)
  dataDir = await mkdtemp(path.join(tmpdir(), 'roland-check-cli-'))
  const store = await freshStoreIn(dataDir)
  try {
    await loadCheckCatalog(store, cases)
  } finally {
    await store.close()
  }
})

afterAll(async () => {
  await sites.close()
  await rm(dataDir, { recursive: true, force: true })
})

async function roland(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, ...args], {
      env: { ...process.env, ROLAND_DATA_DIR: dataDir, SUPABASE_URL: '', ROLAND_ALLOW_PRIVATE_NETWORK: '1' },
      timeout: 120_000,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

interface Report {
  checked: number
  findings: Array<{ business: string; kind: string; detail: string }>
}

describe('roland check --json', () => {
  let first: Report

  beforeAll(async () => {
    const result = await roland(['check', '--json', '--timeout', '5'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    first = JSON.parse(result.stdout) as Report
  }, 120_000)

  test('checks every active listing and none of the inactive ones', () => {
    expect(first.checked).toBe(cases.filter((item) => item.active !== false).length)
  })

  test('reports exactly the expected findings, and none for healthy listings', () => {
    const expected = cases.flatMap((item) =>
      item.expected.map((finding) => ({
        business: item.slug,
        kind: finding.kind,
        detail: expect.stringMatching(finding.detail),
      })),
    )
    expect(first.findings).toHaveLength(expected.length)
    expect(first.findings).toEqual(expect.arrayContaining(expected))
  })

  test('fetches politely: one request at a time per host, HEAD first, a User-Agent naming the site', () => {
    for (const site of [sites.healthy, sites.headRefused, sites.notFound, sites.loop, sites.huge, sites.pdf]) {
      expect(site.peakConcurrent).toBe(1)
      expect(site.requests[0]?.method).toBe('HEAD')
      expect(site.requests[0]?.userAgent).toMatch(/^RolandCommunityBot\/1\.0 \(listing check; \+\S+\/about\)$/)
    }
    // A page that is not HTML is judged by its HEAD answer alone; a refused HEAD is followed by a GET.
    expect(sites.pdf.requests.map((request) => request.method)).toEqual(['HEAD'])
    expect(sites.headRefused.requests.map((request) => request.method)).toEqual(['HEAD', 'GET'])
  })

  test('--report reads the stored findings without fetching again', async () => {
    const before = sites.healthy.requests.length + sites.notFound.requests.length
    const result = await roland(['check', '--report', '--json'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual(first)
    expect(sites.healthy.requests.length + sites.notFound.requests.length).toBe(before)
  })

  test('--business checks one listing and reports its findings', async () => {
    const result = await roland(['check', '--business', 'missing-page-store', '--json', '--timeout', '5'])
    expect(result.code).toBe(0)
    expect(JSON.parse(result.stdout)).toEqual({
      checked: 1,
      findings: [{ business: 'missing-page-store', kind: 'website-error', detail: expect.stringMatching(/HTTP 404/) }],
    })
  })

  test('an unknown slug is a clear error', async () => {
    const result = await roland(['check', '--business', 'no-such-shop'])
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/No active business has the slug "no-such-shop"/)
  })
})
