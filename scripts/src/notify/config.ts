// Email settings of "Notify me" (issue 48), from the environment (.env.example):
// SMTP_URL (smtp://user:pass@host:587, STARTTLS; smtps:// for TLS from the start), MAIL_FROM (the
// sending address; the town's name is put before it), MAIL_RATE (messages a minute, default 600),
// PUBLIC_NOTIFY_URL (the console's public subscriptions route: the emails' one-click unsubscribe
// links go to the same console) and SITE_URL (the site's /notify pages). Unset SMTP_URL or
// MAIL_FROM: email is off, and the console, the CLI and the build say so.

/** How email goes out. */
export interface MailConfig {
  /** The SMTP server, as nodemailer takes it. */
  smtpUrl: string
  /** The sending address (the From header's address part). */
  from: string
  /** At most this many messages a minute, across senders. */
  perMinute: number
  /** The site's origin, for the /notify/confirm and /notify/unsubscribe links. */
  siteUrl: string
  /**
   * The console's origin, for the one-click unsubscribe link ({apiBase}/api/public/unsubscribe):
   * PUBLIC_NOTIFY_URL's; null when unset (the console then uses its own address).
   */
  apiBase: string | null
}

/** Why email is off (SMTP_URL or MAIL_FROM unset), for the console and the CLI to say. */
export const mailOffReason =
  'Email is off: set SMTP_URL (smtp://user:pass@host:587) and MAIL_FROM (news@your-town.example) in .env to send confirmations, alerts and digests.'

/** A mail setting that is there but wrong: what and how to fix it. */
export class MailConfigError extends Error {
  override name = 'MailConfigError'
}

function setting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim()
  return value ? value : undefined
}

/** Reads the mail settings: null when email is off, a MailConfigError when one is malformed. */
export function readMailConfig(env: NodeJS.ProcessEnv = process.env): MailConfig | null {
  const smtpUrl = setting(env, 'SMTP_URL')
  const from = setting(env, 'MAIL_FROM')
  if (!smtpUrl && !from) return null
  if (!smtpUrl)
    throw new MailConfigError(
      'MAIL_FROM is set but SMTP_URL is missing: add smtp://user:pass@host:587 to .env (see .env.example).',
    )
  if (!from)
    throw new MailConfigError(
      'SMTP_URL is set but MAIL_FROM is missing: add the sending address, such as news@your-town.example, to .env.',
    )
  if (!URL.canParse(smtpUrl) || !/^smtps?:$/.test(new URL(smtpUrl).protocol)) {
    throw new MailConfigError(
      `SMTP_URL must be an smtp:// or smtps:// address such as smtp://user:pass@mail.example.org:587, not "${smtpUrl}".`,
    )
  }
  if (!/^[^@\s<>"]+@[^@\s<>"]+\.[^@\s<>"]+$/.test(from)) {
    throw new MailConfigError(
      `MAIL_FROM must be an address such as news@your-town.example, not "${from}" (the town's name is added as the sender's name).`,
    )
  }
  const rateText = setting(env, 'MAIL_RATE') ?? '600'
  if (!/^\d+$/.test(rateText) || Number(rateText) < 1) {
    throw new MailConfigError(`MAIL_RATE must be a number of messages a minute (default 600), not "${rateText}".`)
  }
  const siteUrl = setting(env, 'SITE_URL')
  const notifyUrl = setting(env, 'PUBLIC_NOTIFY_URL')
  if (!siteUrl || !URL.canParse(siteUrl)) {
    throw new MailConfigError(
      "Email needs SITE_URL, the site's address (https://your-town.example), for the links in each email: add it to .env.",
    )
  }
  if (notifyUrl && !URL.canParse(notifyUrl)) {
    throw new MailConfigError(
      `PUBLIC_NOTIFY_URL must be the console's public subscriptions route, such as https://console.your-town.example/api/public/subscriptions, not "${notifyUrl}".`,
    )
  }
  return {
    smtpUrl,
    from,
    perMinute: Number(rateText),
    siteUrl: new URL(siteUrl).origin,
    apiBase: notifyUrl ? new URL(notifyUrl).origin : null,
  }
}

/** The mail settings with the console's address for the unsubscribe links, failing when there is none. */
export function withApiBase(config: MailConfig, fallback?: string | null): MailConfig & { apiBase: string } {
  const apiBase = config.apiBase ?? fallback ?? null
  if (!apiBase) {
    throw new MailConfigError(
      "Email needs PUBLIC_NOTIFY_URL, the console's public subscriptions route (https://console.your-town.example/api/public/subscriptions), for the one-click unsubscribe link: add it to .env.",
    )
  }
  return { ...config, apiBase }
}
