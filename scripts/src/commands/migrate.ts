import type { Command } from 'commander'
import { stat } from 'node:fs/promises'
import path from 'node:path'
import { migrationStatus, runMigration, type MigrationResult } from '../migrate/job.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { keepWasmInBaseline, manyStatementsBudget } from '../store/baseline-wasm.ts'
import { openStore } from '../store/index.ts'
import { terminalProgress } from './progress.ts'

/** The largest Roland.txt imported in baseline code (about 2,000 businesses). */
const smallImportBytes = 600_000

interface MigrateFlags {
  file?: string
  reset?: boolean
  dryRun?: boolean
  overwriteEdits?: boolean
  json?: boolean
}

/** Adds `roland migrate` and `roland migrate status` (the CLI contract other tools rely on). */
export function register(program: Command): void {
  const migrate = program
    .command('migrate')
    .description('import Roland.txt into the database in one transaction (from --file, else the files bucket)')
    .option('--file <path>', 'read this file instead of Roland.txt in the files bucket')
    .option('--reset', 'delete every business first (clear and reload), still atomically')
    .option('--dry-run', 'show what would change and change nothing, including edits the file conflicts with')
    .option('--overwrite-edits', 'replace fields operators edited in the console with the file’s values')
    .option('--json', 'print the result as one JSON object')
    .action(async (flags: MigrateFlags) => {
      // An import runs a statement or more per business: a large one's busiest code is worth
      // optimizing (the CLI kept it in baseline code as it started; this lets V8 optimize it, before
      // the store opens). A small file's import ends before the optimized code pays for its
      // compiling: 40 businesses in 1.3-1.8 CPU-s and 210 MB in baseline code against 3.4-3.8 CPU-s
      // and 720 MB; 1,000 (300 KB) in 2.6 s against 3.1 s; 3,000 (900 KB) in 6.0 s against 5.7 s.
      const size = flags.file ? (await stat(flags.file).catch(() => undefined))?.size : undefined
      if (size === undefined || size > smallImportBytes) keepWasmInBaseline(manyStatementsBudget)
      const store = await openStore({ onCreate: loadSampleData })
      const progress = terminalProgress()
      try {
        const result = await runMigration({
          store,
          source: flags.file ? { file: path.resolve(flags.file) } : { bucket: true },
          reset: flags.reset ?? false,
          dryRun: flags.dryRun ?? false,
          overwriteEdits: flags.overwriteEdits ?? false,
          onEvent: flags.json ? undefined : progress,
        })
        progress.done()
        process.stdout.write(flags.json ? `${JSON.stringify(toJson(result))}\n` : describe(result))
      } finally {
        progress.done()
        await store.close()
      }
    })

  migrate
    .command('status')
    .description('say whether the migration is complete (at least one business) and how many businesses there are')
    .option('--json', 'print {"isComplete","businessCount"}')
    .action(async (_flags: unknown, command: Command) => {
      // `--json` may land on `migrate` itself, which has an option of the same name.
      const flags = command.optsWithGlobals<{ json?: boolean }>()
      const store = await openStore({ onCreate: loadSampleData })
      try {
        const status = await migrationStatus(store)
        process.stdout.write(
          flags.json
            ? `${JSON.stringify(status)}\n`
            : `Migration ${status.isComplete ? 'complete' : 'pending'}: ${status.businessCount} businesses in ${store.location}.\n`,
        )
      } finally {
        await store.close()
      }
    })
}

function toJson(result: MigrationResult) {
  return {
    businesses: result.businesses.map((b) => ({
      name: b.name,
      slug: b.slug,
      category: b.category,
      phone: b.phone,
      website: b.website,
      address: b.address,
      hours: b.hours,
      short_description: b.short_description,
      full_description: b.full_description,
      services: b.services,
      warnings: b.warnings,
      status: b.status,
    })),
    summary: result.summary,
    deactivated: result.deactivated,
    conflicts: result.conflicts,
    overwriteEdits: result.overwriteEdits,
    businessCount: result.businessCount,
    dryRun: result.dryRun,
  }
}

function describe(result: MigrationResult): string {
  const { added, updated, unchanged, deactivated } = result.summary
  const lines = [
    result.dryRun
      ? `Dry run: would add ${added}, update ${updated}, leave ${unchanged} unchanged and deactivate ${deactivated}. Nothing was changed.`
      : `Migration completed successfully! ${result.businessCount} businesses in the database ` +
        `(added ${added}, updated ${updated}, unchanged ${unchanged}, deactivated ${deactivated}).`,
  ]
  for (const b of result.businesses) {
    for (const warning of b.warnings) lines.push(`  warning: ${b.name}: ${warning}`)
  }
  if (result.deactivated.length)
    lines.push(`  ${result.dryRun ? 'would deactivate' : 'deactivated'}: ${result.deactivated.join(', ')}`)
  if (result.conflicts.length) {
    const verb = result.overwriteEdits
      ? result.dryRun
        ? 'would replace'
        : 'replaced'
      : result.dryRun
        ? 'would keep'
        : 'kept'
    lines.push(
      `  ${result.conflicts.length} edited field(s) differ from the file (${verb} the edit${result.overwriteEdits ? ' with the file' : ''}` +
        `${result.overwriteEdits ? '' : '; --overwrite-edits replaces them'}):`,
    )
    for (const c of result.conflicts) {
      lines.push(
        `  conflict: ${c.name} (${c.slug}) ${c.field}: edited ${JSON.stringify(c.current)}, file ${JSON.stringify(c.incoming)}`,
      )
    }
  }
  return `${lines.join('\n')}\n`
}
