import { execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { freePort } from './free-port.ts'
import { tmpdir } from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { readMigrations, readSeed } from '../../src/store/sql-files.ts'
import {
  canInstallDebianPackages,
  findOrInstall,
  installDebianPackage,
  isExecutable,
} from '../../../test/support/browser.ts'

// A throwaway PostgreSQL server for the real-server tests (real-postgres.test.ts): Debian's
// PostgreSQL (15 on this machine image; the newest installed is taken), installed from Debian's
// packages when missing, as the browser and Java are (test/support/browser.ts). The cluster lives
// in a temporary folder, listens on a free port of 127.0.0.1 only, and is stopped and removed by
// stop(), or when the process exits. As root it runs as the `postgres` user (Postgres refuses to
// run as root), which Debian's package creates.

/** What to do when there is no PostgreSQL server and none could be installed. */
export const noPostgresHelp =
  'Install the PostgreSQL server (on Debian as root: `apt-get install -y postgresql`), ' +
  'or set POSTGRES_BIN to the folder of its initdb, pg_ctl and postgres.'

/** The folder of initdb, pg_ctl and postgres: POSTGRES_BIN, else the newest of /usr/lib/postgresql. */
export function findPostgresBin(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const complete = (dir: string) => ['initdb', 'pg_ctl', 'postgres'].every((name) => isExecutable(path.join(dir, name)))
  if (env.POSTGRES_BIN) return complete(env.POSTGRES_BIN) ? env.POSTGRES_BIN : undefined
  let versions: string[]
  try {
    versions = readdirSync('/usr/lib/postgresql').filter((name) => /^\d+$/.test(name))
  } catch {
    return undefined
  }
  return versions
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => `/usr/lib/postgresql/${version}/bin`)
    .find(complete)
}

/** Installs Debian's PostgreSQL when this is Debian as root; returns why it could not, or undefined. */
export function installPostgres(): string | undefined {
  if (!canInstallDebianPackages()) return 'this is not Debian as root'
  console.error(
    'No PostgreSQL server for the real-server tests was found: installing Debian’s (apt-get install -y postgresql)…',
  )
  return installDebianPackage('postgresql')
}

/** Finds the PostgreSQL server, installing it when there is none, and stops with what to install when that fails too. */
export function ensurePostgresBin(): string {
  return findOrInstall(
    () => findPostgresBin(),
    installPostgres,
    (outcome) => `No PostgreSQL server for the real-server tests, and installing it ${outcome}. ${noPostgresHelp}`,
  )
}

/** A running throwaway cluster. */
export interface RealPostgres {
  /** The server's major version, such as 15. */
  version: number
  port: number
  /** A pool of connections as a role that logs in: supabase_admin (the superuser) or postgres (the migrations'). */
  pool(user: 'supabase_admin' | 'postgres', max?: number): pg.Pool
  /** Closes the pools, stops the server and removes its folder; safe to call twice. */
  stop(): Promise<void>
}

/** Starts a cluster: initdb in a temporary folder, then the server on a free port of 127.0.0.1. */
export async function startRealPostgres(): Promise<RealPostgres> {
  const bin = ensurePostgresBin()
  const asRoot = process.getuid?.() === 0
  // As root, in /tmp: the postgres user may not reach a TMPDIR of root's own.
  const root = mkdtempSync(path.join(asRoot ? '/tmp' : tmpdir(), 'roland-postgres-'))
  const dataDir = path.join(root, 'data')
  // As root, the cluster is the postgres user's: its folder theirs, its commands run as them.
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim())
    chownSync(root, uid, gid)
  }
  const run = (command: string, args: string[]) =>
    execFileSync(
      asRoot ? 'runuser' : path.join(bin, command),
      asRoot ? ['-u', 'postgres', '--', path.join(bin, command), ...args] : args,
      {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      },
    )
  const pools: pg.Pool[] = []
  let stopped = false
  const stopServer = () => {
    if (!existsSync(path.join(dataDir, 'postmaster.pid'))) return
    try {
      run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', '-t', '60', 'stop'])
    } catch {
      // pg_ctl could not: end the postmaster by the pid it wrote.
      const pid = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0])
      if (pid > 0) process.kill(pid, 'SIGKILL')
    }
  }
  const removeFolder = () => rmSync(root, { recursive: true, force: true })
  const onExit = () => {
    stopServer()
    removeFolder()
  }
  process.once('exit', onExit)

  try {
    run('initdb', ['-D', dataDir, '-U', 'supabase_admin', '-A', 'trust', '-E', 'UTF8', '--locale=C.UTF-8', '--no-sync'])
    const port = await freePort()
    const options = [
      `-p ${port}`,
      `-k ${root}`,
      '-c listen_addresses=127.0.0.1',
      '-c max_connections=100',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
    ].join(' ')
    run('pg_ctl', ['-D', dataDir, '-l', path.join(root, 'server.log'), '-o', options, '-w', '-t', '60', 'start'])
    const version = Number(readFileSync(path.join(dataDir, 'PG_VERSION'), 'utf8').trim())
    return {
      version,
      port,
      pool(user, max = 10) {
        const pool = new pg.Pool({ host: '127.0.0.1', port, user, database: 'postgres', max })
        // An idle connection the server ends (at stop) is not the test's failure.
        pool.on('error', () => {})
        pools.push(pool)
        return pool
      },
      async stop() {
        if (stopped) return
        stopped = true
        await Promise.allSettled(pools.map((pool) => pool.end()))
        try {
          stopServer()
        } finally {
          removeFolder()
          process.removeListener('exit', onExit)
        }
      },
    }
  } catch (error) {
    const log = path.join(root, 'server.log')
    const detail = existsSync(log) ? `\nThe server's log:\n${readFileSync(log, 'utf8').slice(-4000)}` : ''
    const stderr = (error as { stderr?: string }).stderr ?? ''
    onExit()
    process.removeListener('exit', onExit)
    throw new Error(
      `The throwaway PostgreSQL server did not start: ${(error as Error).message}${stderr ? `\n${stderr}` : ''}${detail}`,
      { cause: error },
    )
  }
}

/** Supabase's roles, grants, auth functions and storage buckets (supabase-bootstrap.sql). */
const bootstrapSql = () => readFileSync(new URL('./supabase-bootstrap.sql', import.meta.url), 'utf8')

/** Where a statement failed in a file: the line of the error's position, when Postgres gave one. */
function lineOf(query: string, position: string | undefined, linesBefore: number): string {
  const at = Number(position)
  return at > 0 ? ` (line ${query.slice(0, at).split('\n').length - linesBefore})` : ''
}

/**
 * Makes the cluster a Supabase project's database: Supabase's roles and auth functions as its
 * superuser, then every migration of supabase/migrations (each in its own transaction, as the
 * Supabase CLI applies them) and seed.sql as postgres. Answers the migrations applied; a failure
 * names the migration, the line and Postgres's message.
 */
export async function loadSupabaseSchema(server: RealPostgres): Promise<string[]> {
  const admin = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'supabase_admin', database: 'postgres' })
  await admin.connect()
  try {
    await admin.query(bootstrapSql())
  } finally {
    await admin.end()
  }
  const owner = new pg.Client({ host: '127.0.0.1', port: server.port, user: 'postgres', database: 'postgres' })
  await owner.connect()
  const applied: string[] = []
  try {
    const files = [...(await readMigrations()), { name: 'seed.sql', sql: await readSeed() }]
    for (const { name, sql } of files) {
      const query = `begin;\n${sql}\n;commit;`
      try {
        await owner.query(query)
      } catch (error) {
        await owner.query('rollback').catch(() => {})
        const { message, position } = error as { message: string; position?: string }
        throw new Error(`${name} failed on PostgreSQL ${server.version}${lineOf(query, position, 1)}: ${message}`, {
          cause: error,
        })
      }
      applied.push(name)
    }
  } finally {
    await owner.end()
  }
  return applied
}
