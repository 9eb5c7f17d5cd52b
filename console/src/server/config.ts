import { dataDir } from '@roland/scripts/paths'
import { z } from 'zod'
import { generateSecret } from './auth.ts'

/** The console's settings, from the environment (see .env.example). */
export interface ConsoleConfig {
  host: '127.0.0.1'
  /** 0 picks a free port (tests). */
  port: number
  /** The sign-in secret. */
  secret: string
  /** True when the secret was generated at start (and must be printed). */
  secretGenerated: boolean
  /** Where the embedded store and the console's saved key live. */
  dataDir: string
  /** The quiet window after a data-changing job before the rebuild starts. */
  rebuildDebounceMs: number
  /** How often job history is re-read while a browser listens, to show CLI jobs. */
  pollMs: number
  /** Let crawls reach loopback and private addresses: only when ROLAND_ALLOW_PRIVATE_NETWORK=1. */
  allowPrivateNetwork: boolean
  sessionTtlMs: number
  env: NodeJS.ProcessEnv
}

const envSchema = z.object({
  PORT: z
    .string()
    .regex(/^\d+$/, 'PORT must be a port number such as 4322')
    .transform(Number)
    .refine((port) => port < 65536, 'PORT must be below 65536')
    .optional(),
  CONSOLE_TOKEN: z
    .string()
    .trim()
    .min(16, 'CONSOLE_TOKEN must be at least 16 characters: use a long random secret')
    .optional(),
  ROLAND_REBUILD_DEBOUNCE_MS: z
    .string()
    .regex(/^\d+$/, 'ROLAND_REBUILD_DEBOUNCE_MS must be a number of milliseconds')
    .transform(Number)
    .optional(),
  ROLAND_JOBS_POLL_MS: z
    .string()
    .regex(/^\d+$/, 'ROLAND_JOBS_POLL_MS must be a number of milliseconds')
    .transform(Number)
    .optional(),
  ROLAND_ALLOW_PRIVATE_NETWORK: z
    .enum(['0', '1', ''], { message: 'ROLAND_ALLOW_PRIVATE_NETWORK must be 1 or unset' })
    .optional(),
})

/** Reads the console's settings, failing with a message that names the setting and the fix. */
export function readConsoleConfig(env: NodeJS.ProcessEnv = process.env): ConsoleConfig {
  const blankAsUnset = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value !== ''),
  )
  const parsed = envSchema.safeParse(blankAsUnset)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`${issue.message} (check ${issue.path.join('.')} in .env or the environment).`)
  }
  const settings = parsed.data
  const secret = settings.CONSOLE_TOKEN ?? generateSecret()
  return {
    host: '127.0.0.1',
    port: settings.PORT ?? 4322,
    secret,
    secretGenerated: settings.CONSOLE_TOKEN === undefined,
    dataDir: dataDir(env),
    rebuildDebounceMs: settings.ROLAND_REBUILD_DEBOUNCE_MS ?? 3000,
    pollMs: settings.ROLAND_JOBS_POLL_MS ?? 2000,
    allowPrivateNetwork: settings.ROLAND_ALLOW_PRIVATE_NETWORK === '1',
    sessionTtlMs: 12 * 60 * 60 * 1000,
    env,
  }
}
