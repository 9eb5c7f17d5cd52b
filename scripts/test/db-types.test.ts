import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { checkedInTypes, clusterUrl, databaseTypesOf } from '../db/generate-types.ts'
import { loadSupabaseSchema, startRealPostgres, type RealPostgres } from './support/real-postgres.ts'

// supabase/types.ts is generated (issue 51): `pnpm db:types` runs postgres-meta's TypeScript
// generator over the migrations on a throwaway PostgreSQL cluster. The checked-in file must be
// exactly what that writes now, so a migration that renames or adds a column without
// regenerating fails here, with what to run.

let server: RealPostgres

beforeAll(async () => {
  server = await startRealPostgres()
  await loadSupabaseSchema(server)
}, 240_000)

afterAll(async () => {
  await server?.stop()
})

describe('supabase/types.ts', () => {
  test('is what the migrations generate, byte for byte', async () => {
    const generated = await databaseTypesOf(clusterUrl(server))
    const stale = 'supabase/types.ts is stale (a migration changed the schema): run pnpm db:types and commit the file'
    expect(await checkedInTypes(), stale).toBe(generated)
  }, 120_000)

  test('goes stale when a migration adds a column', async () => {
    const owner = server.pool('postgres', 1)
    await owner.query('alter table public.businesses add column staleness_probe text')
    const generated = await databaseTypesOf(clusterUrl(server))
    expect(generated).toMatch(/staleness_probe: string \| null/)
    expect(await checkedInTypes()).not.toBe(generated)
  }, 120_000)
})
