import type { Transaction } from '@electric-sql/pglite'
import { hostname } from 'node:os'
import { StoreError, type Job, type JobStore, type JobUpdate } from '../types.ts'

const jobColumns = `id, kind, status, params, progress, result, error, log, started_by, pid, host,
  to_json(created_at) #>> '{}' as created_at, to_json(started_at) #>> '{}' as started_at,
  to_json(finished_at) #>> '{}' as finished_at, to_json(updated_at) #>> '{}' as updated_at`

/** Runs fn in a transaction as one of the Supabase API roles (the embedded store's asRole). */
type AsRole = <T>(role: 'service_role', fn: (tx: Transaction) => Promise<T>) => Promise<T>

/** The job history, in the embedded database's jobs table. */
export function sqlJobs(asRole: AsRole): JobStore {
  return {
    async create(kind, params, startedBy) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `insert into public.jobs (kind, params, started_by, pid, host) values ($1, $2, $3, $4, $5)
           returning ${jobColumns}`,
          [kind, JSON.stringify(params), startedBy, process.pid, hostname()],
        )
        return rows[0]!
      })
    },
    async update(id, update: JobUpdate) {
      return asRole('service_role', async (tx) => {
        const log = (update.appendLog ?? []).map((message) => ({ at: new Date().toISOString(), message }))
        const { rows } = await tx.query<Job>(
          `update public.jobs set
             status = coalesce($2, status),
             progress = coalesce($3::jsonb, progress),
             result = case when $4::boolean then $5::jsonb else result end,
             error = case when $6::boolean then $7 else error end,
             started_at = coalesce($8::timestamptz, started_at),
             finished_at = coalesce($9::timestamptz, finished_at),
             log = log || $10::jsonb
           where id = $1 returning ${jobColumns}`,
          [
            id,
            update.status ?? null,
            update.progress ? JSON.stringify(update.progress) : null,
            'result' in update,
            'result' in update ? JSON.stringify(update.result ?? null) : null,
            'error' in update,
            update.error ?? null,
            update.started_at ?? null,
            update.finished_at ?? null,
            JSON.stringify(log),
          ],
        )
        if (!rows[0]) throw new StoreError(`No job with id ${id}`)
        return rows[0]
      })
    },
    async get(id) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(`select ${jobColumns} from public.jobs where id = $1`, [id])
        return rows[0] ?? null
      })
    },
    async list(limit = 100) {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `select ${jobColumns} from public.jobs order by created_at desc limit $1`,
          [limit],
        )
        return rows
      })
    },
    async unfinished() {
      return asRole('service_role', async (tx) => {
        const { rows } = await tx.query<Job>(
          `select ${jobColumns} from public.jobs where status in ('queued', 'running') order by created_at`,
        )
        return rows
      })
    },
  }
}
