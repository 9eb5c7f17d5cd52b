import { readdir, readFile } from 'node:fs/promises'
import path from 'node:path'
import { supabaseDir } from '../paths.ts'

/** A migration file of supabase/migrations: its version (the timestamp) and SQL. */
export interface Migration {
  version: string
  name: string
  sql: string
}

/** Reads supabase/migrations in version order: the single source of truth for the schema. */
export async function readMigrations(dir = path.join(supabaseDir, 'migrations')): Promise<Migration[]> {
  const names = (await readdir(dir)).filter((name) => /^\d{14}_[\w-]+\.sql$/.test(name)).sort()
  return Promise.all(
    names.map(async (name) => ({
      version: name.slice(0, 14),
      name,
      sql: await readFile(path.join(dir, name), 'utf8'),
    })),
  )
}

/** Reads supabase/seed.sql. */
export async function readSeed(file = path.join(supabaseDir, 'seed.sql')): Promise<string> {
  return readFile(file, 'utf8')
}
