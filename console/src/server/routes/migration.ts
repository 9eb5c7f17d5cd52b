import {
  MigrationError,
  migrationStatus,
  rolandObjectPath,
  runMigration,
  type MigrationResult,
  type MigrationSource,
} from '@roland/scripts/migrate/job'
import { consoleStarter } from '../jobs.ts'
import {
  maxUploadBytes,
  migrationRequestSchema,
  type MigrationStatusView,
  type MigrationSummaryView,
} from '../../shared/api.ts'
import type { Route } from '../context.ts'
import { HttpError, readJson, sendJson } from '../http.ts'

// Base64 makes 5 MB about 6.7 MB; the JSON around it is small.
const uploadBodyLimit = Math.ceil((maxUploadBytes * 4) / 3) + 64 * 1024

/** The migration screen: status, dry-run preview, and running the import as a job. */
export const migrationRoutes: Route[] = [
  {
    method: 'GET',
    path: /^\/api\/migration$/,
    async handler({ res, services }) {
      const { store } = services
      const status = await store.use(async (s) => ({
        ...(await migrationStatus(s)),
        bucketHasFile: (await s.files.get(rolandObjectPath)) !== null,
      }))
      sendJson(res, 200, status satisfies MigrationStatusView)
    },
  },
  {
    // What the import would change (added, updated, deactivated, warnings), changing nothing.
    method: 'POST',
    path: /^\/api\/migration\/preview$/,
    async handler({ req, res, services }) {
      const request = await readJson(req, migrationRequestSchema, uploadBodyLimit)
      try {
        const result = await runMigration({
          store: services.store,
          source: toSource(request.source),
          reset: request.reset,
          overwriteEdits: request.overwriteEdits,
          dryRun: true,
        })
        sendJson(res, 200, summaryView(result))
      } catch (error) {
        if (error instanceof MigrationError) throw new HttpError(422, error.message)
        throw error
      }
    },
  },
  {
    // Runs the import as a job; the answer (202) carries the job, its progress follows as events.
    method: 'POST',
    path: /^\/api\/migration$/,
    async handler({ req, res, services }) {
      const request = await readJson(req, migrationRequestSchema, uploadBodyLimit)
      const job = await services.jobs.launch(
        (onEvent) =>
          runMigration({
            store: services.store,
            source: toSource(request.source),
            reset: request.reset,
            overwriteEdits: request.overwriteEdits,
            startedBy: consoleStarter(),
            onEvent,
          }),
        { mayChangeData: true, changedData: (result) => changedData(result) },
      )
      sendJson(res, 202, { job })
    },
  },
]

function toSource(source: { kind: 'bucket' } | { kind: 'upload'; name: string; base64: string }): MigrationSource {
  if (source.kind === 'bucket') return { bucket: true }
  return { bytes: new Uint8Array(Buffer.from(source.base64, 'base64')), name: source.name }
}

/** Whether a migration changed what the site shows. */
export function changedData(result: MigrationResult): boolean {
  const { added, updated, deactivated } = result.summary
  return added + updated + deactivated > 0
}

/** Trims a migration result to what the screen shows. */
export function summaryView(result: MigrationResult): MigrationSummaryView {
  return {
    summary: result.summary,
    deactivated: result.deactivated,
    conflicts: result.conflicts,
    overwriteEdits: result.overwriteEdits,
    businesses: result.businesses.map((b) => ({
      name: b.name,
      slug: b.slug,
      category: b.category,
      status: b.status,
      warnings: b.warnings,
    })),
    businessCount: result.businessCount,
    dryRun: result.dryRun,
  }
}
