import { dataDir } from '@roland/scripts/paths'
import { z } from 'zod'
import { parseCheckEvery } from './check-schedule.ts'

/** The console's settings, from the environment (see .env.example). */
export interface ConsoleConfig {
  host: '127.0.0.1'
  /** 0 picks a free port (tests). */
  port: number
  /** The automation token (CONSOLE_TOKEN) scripts and CI send as a bearer token; null: none accepted. */
  secret: string | null
  /**
   * The console's public address behind an HTTPS reverse proxy (CONSOLE_PUBLIC_URL), or null: loopback
   * only. When set, its Host and Origin are accepted too, X-Forwarded-Proto is trusted and cookies are Secure.
   */
  publicUrl: URL | null
  /** Where the embedded store and the console's saved key live. */
  dataDir: string
  /** The quiet window after a data-changing job before the rebuild starts. */
  rebuildDebounceMs: number
  /** How often job history is re-read while a browser listens, to show CLI jobs. */
  pollMs: number
  /** Let crawls reach loopback and private addresses: only when ROLAND_ALLOW_PRIVATE_NETWORK=1. */
  allowPrivateNetwork: boolean
  sessionTtlMs: number
  /** How often the console checks every listing (ROLAND_CHECK_EVERY, default weekly); null: never. */
  checkEveryMs: number | null
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
  CONSOLE_PUBLIC_URL: z
    .url({
      protocol: /^https?$/,
      message: 'CONSOLE_PUBLIC_URL must be the address operators open, such as https://console.example.org',
    })
    .transform((value) => new URL(value))
    .refine(
      (url) => url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password,
      'CONSOLE_PUBLIC_URL must be an origin only (https://console.example.org), without a path: the console lives at the root',
    )
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
  ROLAND_CHECK_EVERY: z
    .string()
    .optional()
    .transform((value, context) => {
      try {
        return parseCheckEvery(value)
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    }),
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
  return {
    host: '127.0.0.1',
    port: settings.PORT ?? 4322,
    secret: settings.CONSOLE_TOKEN ?? null,
    publicUrl: settings.CONSOLE_PUBLIC_URL ?? null,
    dataDir: dataDir(env),
    rebuildDebounceMs: settings.ROLAND_REBUILD_DEBOUNCE_MS ?? 3000,
    pollMs: settings.ROLAND_JOBS_POLL_MS ?? 2000,
    allowPrivateNetwork: settings.ROLAND_ALLOW_PRIVATE_NETWORK === '1',
    sessionTtlMs: 12 * 60 * 60 * 1000,
    checkEveryMs: settings.ROLAND_CHECK_EVERY,
    env,
  }
}
