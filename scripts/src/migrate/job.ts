import { readFile, stat } from 'node:fs/promises'
import { z } from 'zod'
import { runJob, type JobListener, type JobReporter } from '../jobs/run-job.ts'
import { phoneCountry, type TownRow } from '../content/schema.ts'
import { readTown, TownMissingError } from '../content/town.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import {
  decodeRolandFile,
  MAX_FILE_BYTES,
  parseRolandText,
  RolandFileError,
  type ParsedBusiness,
} from './parse/index.ts'

/** The name of the business list in the 'files' bucket (SPEC §7). */
export const rolandObjectPath = 'Roland.txt'

/** Where the business list comes from: a local file, bytes (an upload), or the bucket. */
export type MigrationSource = { file: string } | { bytes: Uint8Array; name?: string } | { bucket: true }

/** How one business fared. */
export type MigrationStatus = 'added' | 'updated' | 'unchanged'

/** A field an operator edited that the file would change: kept unless overwriting edits. */
export interface ImportConflict {
  slug: string
  name: string
  field: string
  current: unknown
  incoming: unknown
}

/** What a migration did (or, for a dry run, would do). */
export interface MigrationResult {
  businesses: Array<ParsedBusiness & { status: MigrationStatus }>
  summary: { added: number; updated: number; unchanged: number; deactivated: number; conflicts: number }
  deactivated: string[]
  /** Edited fields the file disagrees with: kept, or replaced when overwriteEdits was set. */
  conflicts: ImportConflict[]
  overwriteEdits: boolean
  businessCount: number
  dryRun: boolean
}

/** Options of a migration run. */
export interface MigrationOptions {
  store: Store
  source: MigrationSource
  /** Delete every business first (SPEC §7's clear-and-reload), still in one transaction. */
  reset?: boolean
  /** Work out what would change, change nothing, record no job. */
  dryRun?: boolean
  /** Replace fields operators edited with the file's values (by default the edits are kept). */
  overwriteEdits?: boolean
  startedBy?: string
  onEvent?: JobListener
}

/** The error of a migration that changed nothing: what went wrong and how to fix it. */
export class MigrationError extends Error {
  override name = 'MigrationError'
}

const count = z.number().int()

/** What public.import_businesses answers (dry run or not). */
const importOutcomeSchema = z.object({
  summary: z.object({ added: count, updated: count, unchanged: count, deactivated: count, conflicts: count }),
  businesses: z.array(z.object({ slug: z.string(), status: z.enum(['added', 'updated', 'unchanged']) })),
  deactivated: z.array(z.string()),
  conflicts: z.array(
    z.object({ slug: z.string(), name: z.string(), field: z.string(), current: z.unknown(), incoming: z.unknown() }),
  ),
  overwriteEdits: z.boolean(),
  businessCount: count,
  dryRun: z.boolean(),
})

/** What public.migration_status answers (SPEC §4). */
const migrationStatusSchema = z.object({ isComplete: z.boolean(), businessCount: count })

/** Whether the migration is complete (at least one active business) and how many businesses are active. */
export function migrationStatus(store: Pick<Store, 'call'>): Promise<z.output<typeof migrationStatusSchema>> {
  return callParsed(store, 'migration_status', {}, migrationStatusSchema)
}

/**
 * Imports Roland.txt (SPEC §5) in one transaction: updates businesses by slug, adds new ones,
 * deactivates the ones the file no longer lists (or, with reset, reloads from scratch).
 * Any failure leaves the database exactly as it was.
 */
export async function runMigration(options: MigrationOptions): Promise<MigrationResult> {
  const work = (reporter: JobReporter) => migrate(options, reporter)
  if (options.dryRun) {
    const events = options.onEvent
    return work({ progress: (progress) => events?.({ progress }), log: (log) => events?.({ log }) })
  }
  return runJob(
    {
      store: options.store,
      kind: 'migrate',
      params: {
        source: describeSource(options.source),
        reset: options.reset ?? false,
        overwriteEdits: options.overwriteEdits ?? false,
      },
      startedBy: options.startedBy ?? 'cli',
      onEvent: options.onEvent,
      record: recordedResult,
    },
    work,
  )
}

/** The fields of a business that import_businesses() takes (a ParsedBusiness has them all). */
export interface ImportFields {
  index: number
  slug: string
  name: string
  category: string
  short_description: string | null
  full_description: string | null
  address: string | null
  phone: string | null
  website: string | null
  hours: string | null
  services: readonly string[]
  /** Opening hours rows as import_businesses() reads them (the parser's HoursRow is one kind). */
  hours_detail: ReadonlyArray<{ day_of_week: number; opens_at?: string; closes_at?: string; is_closed?: boolean }>
}

/** Shapes one business as an entry of import_businesses(), with its Roland.txt provenance. */
export function importEntry(b: ImportFields, migratedAt: string) {
  return {
    slug: b.slug,
    name: b.name,
    category: b.category,
    short_description: b.short_description,
    full_description: b.full_description,
    address: b.address,
    phone: b.phone,
    website: b.website,
    hours: b.hours,
    services: b.services,
    hours_detail: b.hours_detail,
    metadata: { source: 'roland.txt', originalIndex: b.index, migratedAt },
  }
}

/** What the job history keeps of a migration: the counts and what needs a person's eye, not every row. */
export function recordedResult(result: MigrationResult) {
  return {
    summary: result.summary,
    deactivated: result.deactivated,
    conflicts: result.conflicts.slice(0, 200),
    businessCount: result.businessCount,
    warnings: result.businesses
      .filter((b) => b.warnings.length > 0)
      .slice(0, 200)
      .map((b) => ({ name: b.name, slug: b.slug, warnings: b.warnings })),
  }
}

async function migrate(options: MigrationOptions, reporter: JobReporter): Promise<MigrationResult> {
  reporter.progress({ phase: 'reading', done: 0, total: 3 })
  const bytes = await readSource(options.store, options.source)
  reporter.progress({ phase: 'parsing', done: 1, total: 3 })
  const { country, place } = await townRules(options.store)
  let parsed: ParsedBusiness[]
  try {
    // Phones are read as they are dialled in the town's country (issue 42): '555-0123' is local there;
    // a town of the town's own state needs no ZIP to read as an address.
    parsed = parseRolandText(decodeRolandFile(bytes), { country, place })
  } catch (error) {
    if (error instanceof RolandFileError) throw new MigrationError(`Roland.txt cannot be imported: ${error.message}`)
    throw error
  }
  const warned = parsed.filter((b) => b.warnings.length > 0).length
  reporter.log(`Parsed ${parsed.length} businesses (${warned} with warnings).`)
  reporter.progress({ phase: options.dryRun ? 'comparing' : 'importing', done: 2, total: 3 })
  const migratedAt = new Date().toISOString()
  const entries = parsed.map((b) => importEntry(b, migratedAt))
  let outcome: z.output<typeof importOutcomeSchema>
  try {
    outcome = await callParsed(
      options.store,
      'import_businesses',
      {
        entries,
        reset: options.reset ?? false,
        dry_run: options.dryRun ?? false,
        overwrite_edits: options.overwriteEdits ?? false,
      },
      importOutcomeSchema,
    )
  } catch (error) {
    throw new MigrationError(`Failed to insert businesses: ${(error as Error).message}`)
  }
  const statusBySlug = new Map(outcome.businesses.map((b) => [b.slug, b.status]))
  const { added, updated, unchanged, deactivated, conflicts } = outcome.summary
  reporter.log(
    `${options.dryRun ? 'Would add' : 'Added'} ${added}, ${options.dryRun ? 'update' : 'updated'} ${updated}, ` +
      `${unchanged} unchanged, ${options.dryRun ? 'deactivate' : 'deactivated'} ${deactivated}.`,
  )
  if (conflicts > 0) {
    reporter.log(
      `${conflicts} field(s) edited by operators differ from the file: ` +
        (outcome.overwriteEdits ? 'replaced with the file’s values.' : 'kept (use --overwrite-edits to replace them).'),
    )
  }
  reporter.progress({ phase: 'done', done: 3, total: 3 })
  return {
    businesses: parsed.map((b) => ({ ...b, status: statusBySlug.get(b.slug) ?? 'unchanged' })),
    summary: outcome.summary,
    deactivated: outcome.deactivated,
    conflicts: outcome.conflicts,
    overwriteEdits: outcome.overwriteEdits,
    businessCount: outcome.businessCount,
    dryRun: outcome.dryRun,
  }
}

/**
 * The town's country, whose rules the list's phone numbers follow, and its state, whose towns the
 * list names without a ZIP (town_settings, issue 39).
 */
async function townRules(store: Store) {
  let town: TownRow
  try {
    town = await readTown(store)
  } catch (error) {
    if (error instanceof TownMissingError) throw new MigrationError(`Roland.txt cannot be imported: ${error.message}`)
    throw error
  }
  const rules = phoneCountry(town.country)
  if (!rules)
    throw new MigrationError(
      `Roland.txt cannot be imported: the town's country "${town.country}" has no phone rules to read the list's phone numbers by. Set a two-letter ISO 3166 code, such as US, on the console's Town screen.`,
    )
  return { country: rules, place: { state: town.state, state_code: town.state_code } }
}

async function readSource(store: Store, source: MigrationSource): Promise<Uint8Array> {
  if ('bytes' in source) return checkSize(source.bytes.byteLength, source.name ?? 'the uploaded file', source.bytes)
  if ('file' in source) {
    try {
      const info = await stat(source.file)
      if (!info.isFile()) throw new MigrationError(`Failed to download Roland.txt: ${source.file} is not a file`)
      checkSize(info.size, source.file, null)
      return new Uint8Array(await readFile(source.file))
    } catch (error) {
      if (error instanceof MigrationError) throw error
      const code = (error as NodeJS.ErrnoException).code
      const why =
        code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : (error as Error).message
      throw new MigrationError(`Failed to download Roland.txt: cannot read ${source.file} (${why})`)
    }
  }
  let bytes: Uint8Array | null
  try {
    bytes = await store.files.get(rolandObjectPath)
  } catch (error) {
    throw new MigrationError(`Failed to download Roland.txt: ${(error as Error).message}`)
  }
  if (!bytes) {
    throw new MigrationError(
      `Failed to download Roland.txt: the 'files' bucket of ${store.location} has no ${rolandObjectPath}. ` +
        'Upload it there, or pass --file PATH.',
    )
  }
  return checkSize(bytes.byteLength, `${rolandObjectPath} in the bucket`, bytes)
}

function checkSize<T>(size: number, what: string, value: T): T {
  // The limit is the parser's (parse/decode.ts), checked here before the file is read whole.
  if (size > MAX_FILE_BYTES) {
    throw new MigrationError(
      `Roland.txt cannot be imported: ${what} is ${(size / 1024 / 1024).toFixed(1)} MB, over the ${MAX_FILE_BYTES / 1024 / 1024} MB limit. ` +
        'Is it the right file?',
    )
  }
  return value
}

function describeSource(source: MigrationSource): string {
  if ('file' in source) return source.file
  if ('bytes' in source) return source.name ?? 'upload'
  return `bucket:${rolandObjectPath}`
}
