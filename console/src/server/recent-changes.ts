import { callParsed } from '@roland/scripts/store/parsed-call'
import type { Store } from '@roland/scripts/store/types'
import { z } from 'zod'
import type { RecentChangeView } from '../shared/api.ts'

// "Recent changes" on Today (issue 43): one line per save or job, in a volunteer's words
// ("Imported Roland.txt: 35 businesses added"), never a database role. The grouping is SQL's
// (public.recent_changes in supabase/migrations/20261128000500_console_reading.sql); the words are here.

/** One audited transaction, as public.recent_changes answers it. */
const changeGroupSchema = z.object({
  txid: z.number(),
  at: z.string(),
  actor: z.string(),
  /** The actor is a database role (sql:postgres, service_role), not a person. */
  by_role: z.boolean(),
  /** Written before any job ran: the seed and the migrations, not a change anybody made. */
  setup: z.boolean(),
  rows: z.number().int(),
  tables: z.array(z.string()),
  /** The first business, event or attraction it touched, if any. */
  main: z
    .object({
      table: z.string(),
      row_id: z.string(),
      action: z.enum(['insert', 'update', 'delete']),
      label: z.string(),
    })
    .nullable(),
  /** How many businesses, events and attractions it touched. */
  main_rows: z.number().int(),
  submission_id: z.string().nullable(),
  /** The job that was running when a database role wrote it. */
  job: z
    .object({
      id: z.string(),
      kind: z.string(),
      params: z.record(z.string(), z.unknown()).nullable(),
      result: z.record(z.string(), z.unknown()).nullable(),
      status: z.string(),
      started_by: z.string(),
    })
    .nullable(),
})

/** One audited transaction, as public.recent_changes answers it. */
export type ChangeGroup = z.output<typeof changeGroupSchema>

const actionWords = { insert: 'added', update: 'changed', delete: 'deleted' } as const

const tableWords: Record<string, [one: string, many: string]> = {
  businesses: ['business', 'businesses'],
  business_services: ['service', 'services'],
  business_images: ['photo', 'photos'],
  business_hours: ['opening hours line', 'opening hours lines'],
  community_events: ['event', 'events'],
  attractions: ['attraction', 'attractions'],
  location_categories: ['category', 'categories'],
}

/** "1 business", "35 businesses": a count with the word for what it counts. */
export function countOf(n: number, table: string): string {
  const [one, many] = tableWords[table] ?? [table.replaceAll('_', ' '), table.replaceAll('_', ' ')]
  return `${n} ${n === 1 ? one : many}`
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() ? value.trim() : null
}

function number(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0
}

/** Who started a job, as a volunteer says it. */
function starter(startedBy: string): string {
  if (startedBy === 'setup') return 'the first setup'
  if (startedBy.startsWith('console')) return 'the console'
  if (startedBy === 'cli') return 'the command line'
  return startedBy
}

/** What an import did: "35 businesses added, 2 updated", or "no changes". */
function importSummary(summary: Record<string, unknown>): string {
  const added = number(summary.added)
  const updated = number(summary.updated)
  const deactivated = number(summary.deactivated)
  const parts: string[] = []
  if (added) parts.push(`${countOf(added, 'businesses')} added`)
  if (updated) parts.push(parts.length ? `${updated} updated` : `${countOf(updated, 'businesses')} updated`)
  if (deactivated)
    parts.push(parts.length ? `${deactivated} deactivated` : `${countOf(deactivated, 'businesses')} deactivated`)
  return parts.length ? parts.join(', ') : 'no changes'
}

/** What a job's rows were, by the job: "Imported Roland.txt: 35 businesses added". */
function jobLine(job: NonNullable<ChangeGroup['job']>, group: ChangeGroup): string {
  const params = job.params ?? {}
  const result = job.result ?? {}
  const business = text(params.businessName) ?? text(params.slug) ?? group.main?.label ?? null
  switch (job.kind) {
    case 'migrate': {
      const source = text(params.source) ?? 'Roland.txt'
      const file =
        source
          .replace(/^bucket:/, '')
          .split('/')
          .pop() ?? source
      const summary = result.summary
      return `Imported ${file}: ${summary && typeof summary === 'object' ? importSummary(summary as Record<string, unknown>) : countOf(group.main_rows, 'businesses')}`
    }
    case 'crawl':
      return business && params.target !== 'missing'
        ? `Crawled photos of ${business}: ${countOf(group.rows, 'business_images')}`
        : `Crawled photos of businesses without any: ${countOf(group.rows, 'business_images')}`
    case 'images':
      if (params.action === 'optimize') return `Optimized photos: ${countOf(group.rows, 'business_images')}`
      return business && params.target !== 'missing'
        ? `Made a store image for ${business}`
        : `Made store images: ${countOf(group.rows, 'business_images')}`
    default:
      return `${job.kind[0]!.toUpperCase()}${job.kind.slice(1)} job: ${group.rows} ${group.rows === 1 ? 'change' : 'changes'}`
  }
}

/** What an operator's save touched: "Big Rock Coffee", "Big Rock Coffee and 2 more", "3 photos". */
function subjectOf(group: ChangeGroup): string {
  if (group.main) {
    const label = group.main.label || countOf(1, group.main.table)
    return group.main_rows > 1 ? `${label} and ${group.main_rows - 1} more` : label
  }
  const [table] = group.tables
  return table ? countOf(group.rows, table) : `${group.rows} rows`
}

/** The line Today shows for one change. */
export function describeChange(group: ChangeGroup): RecentChangeView {
  const base = {
    id: String(group.txid),
    at: group.at,
    table: group.main?.table ?? group.tables[0] ?? null,
    rowId: group.main?.row_id ?? null,
    action: group.main?.action ?? 'update',
  }
  if (group.by_role && group.job) {
    return {
      ...base,
      who: null,
      text: jobLine(group.job, group),
      via: `by ${starter(group.job.started_by)}`,
      jobId: group.job.id,
    }
  }
  if (group.by_role) {
    return { ...base, who: null, text: `Changed directly in the database: ${subjectOf(group)}`, via: null, jobId: null }
  }
  const verb = actionWords[group.main?.action ?? 'update']
  const what = group.submission_id
    ? `${verb} ${subjectOf(group)} (a visitor's suggestion)`
    : `${verb} ${subjectOf(group)}`
  return { ...base, who: group.actor, text: what, via: null, jobId: null }
}

/** The latest changes a person or a job made, newest first: at most `limit` lines. */
export async function recentChanges(store: Store, limit = 8): Promise<RecentChangeView[]> {
  // A few more than shown: the setup's rows are left out.
  const groups =
    (await callParsed(store, 'recent_changes', { max_changes: limit + 4 }, changeGroupSchema.array().nullable())) ?? []
  return groups
    .filter((group) => !group.setup)
    .slice(0, limit)
    .map(describeChange)
}
