import { dataDir } from '@roland/scripts/paths'
import { z } from 'zod'
import path from 'node:path'
import { parseBackupEvery } from './backup-schedule.ts'
import { parseFeedsEvery } from './feeds-schedule.ts'
import { parseCheckEvery } from './check-schedule.ts'
import { readMailConfig, type MailConfig } from '@roland/scripts/notify/config'

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
  /** Whether the next rebuild's process is started ahead and waits, Astro loaded (ROLAND_REBUILD_STANDBY, default on). */
  rebuildStandby: boolean
  /** How often job history is re-read while a browser listens, to show CLI jobs. */
  pollMs: number
  /** Let crawls reach loopback and private addresses: only when ROLAND_ALLOW_PRIVATE_NETWORK=1. */
  allowPrivateNetwork: boolean
  sessionTtlMs: number
  /** How often the console checks every listing (ROLAND_CHECK_EVERY, default weekly); null: never. */
  checkEveryMs: number | null
  /** Where scheduled backups go (ROLAND_BACKUP_DIR), or null: no scheduled backups. */
  backupDir: string | null
  /** How often the console writes a checked backup there (ROLAND_BACKUP_EVERY, default daily); null: never. */
  backupEveryMs: number | null
  /** How often the console syncs the calendar feeds (ROLAND_FEEDS_EVERY, default 6 hours); null: never. */
  feedsEveryMs: number | null
  /** Visitors' suggestions (issue 27): who may post them from a browser, the anti-spam check, the notification. */
  submissions: SubmissionsConfig
  /** "Notify me" email (SMTP_URL, MAIL_FROM, MAIL_RATE, SITE_URL, PUBLIC_NOTIFY_URL), or null: email is off. */
  mail: MailConfig | null
  /** How often the console looks at the outbox (ROLAND_NOTIFY_POLL_MS, default a minute). */
  notifyPollMs: number
  env: NodeJS.ProcessEnv
}

/** The settings of POST /api/public/submissions. */
export interface SubmissionsConfig {
  /** The site origins a browser may post from (SUBMISSIONS_ALLOWED_ORIGINS; default the local site and SITE_URL). */
  allowedOrigins: string[]
  /** Cloudflare Turnstile's secret key (TURNSTILE_SECRET_KEY), or null: no challenge required. */
  turnstileSecret: string | null
  /** Turnstile's siteverify address (TURNSTILE_VERIFY_URL; default Cloudflare's). */
  turnstileVerifyUrl: string
  /** Where each new submission is announced (SUBMISSIONS_WEBHOOK_URL: a Slack or Discord webhook), or null. */
  webhookUrl: string | null
}

/** The local site's origins (`pnpm start`, `pnpm dev`, `pnpm preview`), always allowed to post suggestions. */
export const localSiteOrigins = ['http://127.0.0.1:4321', 'http://localhost:4321']

/** Cloudflare's Turnstile siteverify API. */
export const turnstileVerifyUrl = 'https://challenges.cloudflare.com/turnstile/v0/siteverify'

const origin = (name: string) =>
  z
    .url({ protocol: /^https?$/, message: `${name} must list origins such as https://roland.example.org` })
    .transform((value, context) => {
      const url = new URL(value)
      if (url.pathname !== '/' || url.search || url.hash) {
        context.addIssue({
          code: 'custom',
          message: `${name} takes origins only (https://roland.example.org), without a path`,
        })
      }
      return url.origin
    })

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
  ROLAND_REBUILD_STANDBY: z.enum(['on', 'off'], { message: 'ROLAND_REBUILD_STANDBY must be on or off' }).optional(),
  ROLAND_JOBS_POLL_MS: z
    .string()
    .regex(/^\d+$/, 'ROLAND_JOBS_POLL_MS must be a number of milliseconds')
    .transform(Number)
    .optional(),
  SUBMISSIONS_ALLOWED_ORIGINS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    )
    .pipe(z.array(origin('SUBMISSIONS_ALLOWED_ORIGINS')))
    .optional(),
  SITE_URL: z.string().optional(),
  TURNSTILE_SECRET_KEY: z.string().trim().min(1).optional(),
  TURNSTILE_VERIFY_URL: z
    .url({ protocol: /^https?$/, message: 'TURNSTILE_VERIFY_URL must be an http(s) address' })
    .optional(),
  SUBMISSIONS_WEBHOOK_URL: z
    .url({
      protocol: /^https?$/,
      message: 'SUBMISSIONS_WEBHOOK_URL must be an http(s) address: a Slack or Discord webhook',
    })
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
  ROLAND_FEEDS_EVERY: z
    .string()
    .optional()
    .transform((value, context) => {
      try {
        return parseFeedsEvery(value)
      } catch (error) {
        context.addIssue({ code: 'custom', message: (error as Error).message })
        return z.NEVER
      }
    }),
  ROLAND_BACKUP_DIR: z.string().trim().optional(),
  ROLAND_NOTIFY_POLL_MS: z
    .string()
    .regex(/^\d+$/, 'ROLAND_NOTIFY_POLL_MS must be a number of milliseconds')
    .transform(Number)
    .optional(),
  ROLAND_BACKUP_EVERY: z.string().optional(),
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
  const backupDir = settings.ROLAND_BACKUP_DIR ? path.resolve(settings.ROLAND_BACKUP_DIR) : null
  let backupEveryMs: number | null
  try {
    backupEveryMs = parseBackupEvery(settings.ROLAND_BACKUP_EVERY, backupDir ?? undefined)
  } catch (error) {
    throw new Error(`${(error as Error).message} (check ROLAND_BACKUP_EVERY in .env or the environment).`, {
      cause: error,
    })
  }
  const mail: MailConfig | null = readMailConfig(blankAsUnset)
  return {
    host: '127.0.0.1',
    port: settings.PORT ?? 4322,
    secret: settings.CONSOLE_TOKEN ?? null,
    publicUrl: settings.CONSOLE_PUBLIC_URL ?? null,
    dataDir: dataDir(env),
    rebuildDebounceMs: settings.ROLAND_REBUILD_DEBOUNCE_MS ?? 3000,
    rebuildStandby: settings.ROLAND_REBUILD_STANDBY !== 'off',
    pollMs: settings.ROLAND_JOBS_POLL_MS ?? 2000,
    allowPrivateNetwork: settings.ROLAND_ALLOW_PRIVATE_NETWORK === '1',
    sessionTtlMs: 12 * 60 * 60 * 1000,
    checkEveryMs: settings.ROLAND_CHECK_EVERY,
    backupDir,
    backupEveryMs,
    feedsEveryMs: settings.ROLAND_FEEDS_EVERY,
    submissions: {
      allowedOrigins: settings.SUBMISSIONS_ALLOWED_ORIGINS ?? [...localSiteOrigins, ...siteOrigin(settings.SITE_URL)],
      turnstileSecret: settings.TURNSTILE_SECRET_KEY ?? null,
      turnstileVerifyUrl: settings.TURNSTILE_VERIFY_URL ?? turnstileVerifyUrl,
      webhookUrl: settings.SUBMISSIONS_WEBHOOK_URL ?? null,
    },
    mail,
    notifyPollMs: settings.ROLAND_NOTIFY_POLL_MS ?? 60_000,
    env,
  }
}

// The site's public address (SITE_URL) is allowed to post suggestions too, when it is a URL.
function siteOrigin(siteUrl: string | undefined): string[] {
  if (!siteUrl || !URL.canParse(siteUrl)) return []
  const url = new URL(siteUrl)
  return url.protocol === 'https:' || url.protocol === 'http:' ? [url.origin] : []
}
