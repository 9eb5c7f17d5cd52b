import { z } from 'zod'
import { runJob, type JobListener } from '../jobs/run-job.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { StoreError } from '../store/types.ts'
import { findingKinds, type FindingKind } from './kinds.ts'
import { phoneCountry } from '../content/schema.ts'
import { readTown } from '../content/town.ts'
import { listingFindings, type Finding, type ListingToCheck } from './rules.ts'
import { checkWebsite, WEBSITE_CHECK_DEFAULTS } from './website.ts'

// DESIGN.md, "Freshness": the check job. It reads the active businesses, applies the rules that
// need no network to each, checks each website (at most 8 requests at once and one per host), and
// records every finding in one call of public.record_check, which also resolves the findings that
// no longer hold. Nothing else is written: bad input costs at most a finding.

/** One line of the check's report, as `roland check --json` prints it. */
export interface ReportedFinding {
  business: string
  kind: FindingKind
  detail: string
}

/** The report: how many listings were checked, and the open findings no operator dismissed. */
export interface CheckReport {
  checked: number
  findings: ReportedFinding[]
}

const stamp = z.string().nullable()

/** An open finding as public.open_findings answers it. */
const openFindingSchema = z.object({
  id: z.string(),
  business_id: z.string(),
  business: z.string(),
  name: z.string(),
  kind: z.enum(findingKinds),
  detail: z.string(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  seen_count: z.number().int(),
  dismissed_at: stamp,
  dismissed_by: stamp,
  website_hidden: z.boolean(),
})

/** An open finding as the console lists it (public.open_findings). */
export type OpenFinding = z.output<typeof openFindingSchema>

/** A listing as public.listings_to_check answers it (rules.ts's ListingToCheck). */
const listingToCheckSchema = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  website: stamp,
  phone: stamp,
  hours: stamp,
  verified_at: stamp,
  has_image: z.boolean(),
})

/** What public.record_check answers: findings opened, seen again and resolved. */
const recordedSchema = z.object({ opened: z.number().int(), seen: z.number().int(), resolved: z.number().int() })

/** What a check run did. */
export interface CheckResult extends CheckReport {
  /** Findings opened, seen again and resolved by this run. */
  recorded: { opened: number; seen: number; resolved: number }
  /** Websites whose link the site now hides or shows again: the site needs a rebuild when non-zero. */
  websiteLinksChanged: number
  jobId: string | null
}

/** Options of a check run. */
export interface RunCheckOptions {
  store: Store
  /** Check this business only (its slug); default every active business. */
  slug?: string | undefined
  /** Let website checks reach 127.0.0.1 and private addresses (ROLAND_ALLOW_PRIVATE_NETWORK=1). */
  allowPrivateNetwork?: boolean
  /** Time allowed for each request hop (default 10 s). */
  timeoutMs?: number
  /** The most of a page read (default 256 KB). */
  maxBytes?: number
  /** Requests at once across hosts (default and most 8); each host still gets one at a time. */
  concurrency?: number
  /** The site's address, named in the User-Agent (SITE_URL). */
  siteUrl?: string | undefined
  /** What "now" is, for the 365 days of a verification (tests). */
  now?: Date
  signal?: AbortSignal
  startedBy?: string
  onEvent?: JobListener
}

/** The most website requests a check has in flight at once. */
export const MAX_CONCURRENT_REQUESTS = 8

/** The User-Agent of the check: who asks and where to read why. */
export function checkUserAgent(siteUrl: string | undefined): string {
  const site = (siteUrl?.trim() || 'https://roland-ar.example').replace(/\/+$/, '')
  return `RolandCommunityBot/1.0 (listing check; +${site}/about)`
}

/** Read the listings a check looks at; an unknown slug is a clear error. */
async function listings(store: Store, slug: string | undefined): Promise<ListingToCheck[]> {
  const rows =
    (await callParsed(
      store,
      'listings_to_check',
      { only_slug: slug ?? null },
      listingToCheckSchema.array().nullable(),
    )) ?? []
  if (slug !== undefined && rows.length === 0) {
    throw new StoreError(
      `No active business has the slug "${slug}": the slug is the last part of its page address, /business/{slug}.`,
    )
  }
  return rows
}

/** Read the open findings (all, or one business's), dismissed ones included. */
export async function openFindings(store: Store, slug?: string): Promise<OpenFinding[]> {
  return (
    (await callParsed(store, 'open_findings', { only_slug: slug ?? null }, openFindingSchema.array().nullable())) ?? []
  )
}

/** Read the report from the stored findings, fetching nothing. */
export async function checkReport(store: Store, slug?: string): Promise<CheckReport> {
  const [checked, open] = await Promise.all([listings(store, slug), openFindings(store, slug)])
  const order = (kind: FindingKind) => findingKinds.indexOf(kind)
  const findings = open
    .filter((finding) => finding.dismissed_at === null)
    .sort((a, b) => a.business.localeCompare(b.business) || order(a.kind) - order(b.kind))
    .map(({ business, kind, detail }) => ({ business, kind, detail }))
  return { checked: checked.length, findings }
}

const hidden = (findings: OpenFinding[]) =>
  new Set(findings.filter((finding) => finding.website_hidden).map((finding) => finding.business))

/** Check every active business (or one), record the findings, and report them; a 'check' job. */
export async function runCheck(options: RunCheckOptions): Promise<CheckResult> {
  const { store } = options
  let jobId: string | null = null
  return runJob(
    {
      store,
      kind: 'check',
      params: {
        ...(options.slug ? { slug: options.slug } : {}),
        allowPrivateNetwork: options.allowPrivateNetwork ?? false,
      },
      startedBy: options.startedBy ?? 'cli',
      onEvent: (event) => {
        if ('job' in event) jobId ??= event.job.id
        options.onEvent?.(event)
      },
      record: (result: CheckResult) => ({ ...result, findings: result.findings.slice(0, 500) }),
    },
    async (reporter) => {
      reporter.progress({ phase: 'reading listings', done: 0, total: 1 })
      const todo = await listings(store, options.slug)
      const before = hidden(await openFindings(store, options.slug))
      const now = options.now ?? new Date()
      reporter.progress({ phase: 'reading listings', done: 1, total: 1 })

      const { country } = await readTown(store)
      const rules = phoneCountry(country)
      if (!rules)
        throw new Error(
          `The town's country "${country}" has no phone rules: set a two-letter ISO 3166 code, such as US, on the console's Town screen.`,
        )
      const found = new Map<string, Finding[]>(
        todo.map((listing) => [listing.id, listingFindings(listing, now, rules)]),
      )
      // One queue per website host, so each host gets one request at a time and no worker waits on
      // a busy host while another is free.
      const byHost = new Map<string, ListingToCheck[]>()
      for (const listing of todo) {
        if (!listing.website?.trim()) continue
        let host: string
        try {
          host = new URL(listing.website.trim()).host.toLowerCase()
        } catch {
          host = listing.website
        }
        byHost.set(host, [...(byHost.get(host) ?? []), listing])
      }
      const queues = [...byHost.values()]
      const total = queues.reduce((sum, queue) => sum + queue.length, 0)
      const phase = 'checking websites'
      let done = 0
      reporter.progress({ phase, done, total })
      reporter.log(`Checking ${todo.length} listing${todo.length === 1 ? '' : 's'}, ${total} with a website.`)
      const userAgent = checkUserAgent(options.siteUrl)
      const worker = async () => {
        for (let queue = queues.shift(); queue; queue = queues.shift()) {
          for (const listing of queue) {
            options.signal?.throwIfAborted()
            const finding = await checkWebsite(listing.website!, {
              allowPrivateNetwork: options.allowPrivateNetwork ?? false,
              timeoutMs: options.timeoutMs ?? WEBSITE_CHECK_DEFAULTS.timeoutMs,
              maxBytes: options.maxBytes,
              userAgent,
              signal: options.signal,
            })
            if (finding) {
              found.get(listing.id)!.push(finding)
              reporter.log(`${listing.name}: ${finding.kind}: ${finding.detail}`)
            }
            reporter.progress({ phase, done: ++done, total })
          }
        }
      }
      const concurrency = Math.max(1, Math.min(options.concurrency ?? MAX_CONCURRENT_REQUESTS, MAX_CONCURRENT_REQUESTS))
      await Promise.all(Array.from({ length: Math.min(concurrency, Math.max(queues.length, 1)) }, worker))

      reporter.progress({ phase: 'recording findings', done: 0, total: 1 })
      const recorded = await callParsed(
        store,
        'record_check',
        { checked: todo.map((listing) => ({ business_id: listing.id, findings: found.get(listing.id) ?? [] })) },
        recordedSchema,
      )
      const report = await checkReport(store, options.slug)
      const after = hidden(await openFindings(store, options.slug))
      const websiteLinksChanged =
        [...after].filter((slug) => !before.has(slug)).length + [...before].filter((slug) => !after.has(slug)).length
      reporter.progress({ phase: 'recording findings', done: 1, total: 1 })
      reporter.log(
        `Checked ${todo.length}: ${report.findings.length} open finding${report.findings.length === 1 ? '' : 's'} ` +
          `(${recorded.opened} new, ${recorded.resolved} resolved).`,
      )
      return { ...report, checked: todo.length, recorded, websiteLinksChanged, jobId }
    },
  )
}
