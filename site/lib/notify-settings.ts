// Where the "Notify me" form and the /notify/confirm and /notify/unsubscribe pages post (issue 48):
// PUBLIC_NOTIFY_URL, the console's public subscriptions route, read when the site is built. Unset,
// the build leaves the form out and shows the alerts' feeds instead.

/** The addresses the pages post to; null when the build has no PUBLIC_NOTIFY_URL. */
export interface NotifySettings {
  /** POST {"email", "topics"}. */
  subscribe: string
  /** POST {"token"}. */
  confirm: string
  /** POST {"token", "topics"}. */
  unsubscribe: string
}

/** A setting that cannot work, with what to change. */
export class NotifySettingsError extends Error {
  override name = 'NotifySettingsError'
}

/** Reads PUBLIC_NOTIFY_URL: null when unset; a malformed one fails the build with what to change. */
export function notifySettings(env: NodeJS.ProcessEnv = process.env): NotifySettings | null {
  const raw = env.PUBLIC_NOTIFY_URL?.trim()
  if (!raw) return null
  if (!URL.canParse(raw) || !/^https?:$/.test(new URL(raw).protocol)) {
    throw new NotifySettingsError(
      `PUBLIC_NOTIFY_URL must be the console's http(s) address followed by /api/public/subscriptions, not "${raw}": ` +
        'check .env (see .env.example), or unset it to leave the "Notify me" form out.',
    )
  }
  const url = new URL(raw)
  return {
    subscribe: url.href,
    confirm: new URL('/api/public/subscriptions/confirm', url).href,
    unsubscribe: new URL('/api/public/unsubscribe', url).href,
  }
}
