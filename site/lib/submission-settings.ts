import { supabaseSettings } from '@roland/scripts/store/index'

// Where the visitors' suggestion forms send what they write (issue 27): one setting,
// PUBLIC_SUBMISSIONS_URL, read when the site is built. Unset, every form is the mailto link it
// always was. The console's public route takes the POST as it is; Supabase's REST RPC endpoint
// also wants the project's publishable key (public by design: it lets anon call what anon may).

/** What the forms need to send a suggestion; null when the build has no endpoint. */
export interface SubmissionSettings {
  /** The console's /api/public/submissions, or {SUPABASE_URL}/rest/v1/rpc/submit_suggestion. */
  url: string
  /** The publishable key, sent as the apikey header, when the endpoint is Supabase's REST API. */
  apikey: string | null
  /** Cloudflare Turnstile's site key, when the forms show its check. */
  turnstileSiteKey: string | null
}

/** A setting that cannot work, with what to change. */
export class SubmissionSettingsError extends Error {
  override name = 'SubmissionSettingsError'
}

/**
 * Reads the submissions endpoint from the environment (PUBLIC_SUBMISSIONS_URL, and for a Supabase
 * endpoint SUPABASE_URL with its publishable key); null when it is unset. A setting that cannot
 * work fails the build with what to change, rather than publishing forms that cannot send.
 */
export function submissionSettings(env: NodeJS.ProcessEnv = process.env): SubmissionSettings | null {
  const raw = env.PUBLIC_SUBMISSIONS_URL?.trim()
  if (!raw) return null
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new SubmissionSettingsError(
      `PUBLIC_SUBMISSIONS_URL is not a URL: "${raw}". Use the console's address followed by /api/public/submissions, ` +
        'or {SUPABASE_URL}/rest/v1/rpc/submit_suggestion, or unset it to keep the forms as email links (see .env.example).',
    )
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SubmissionSettingsError(
      `PUBLIC_SUBMISSIONS_URL must be an http(s) address, not ${url.protocol}: check .env (see .env.example).`,
    )
  }
  const turnstileSiteKey = env.PUBLIC_TURNSTILE_SITE_KEY?.trim() || null
  if (!url.pathname.startsWith('/rest/v1/')) return { url: url.href, apikey: null, turnstileSiteKey }
  const supabase = supabaseSettings(env)
  if (!supabase || new URL(supabase.url).origin !== url.origin) {
    throw new SubmissionSettingsError(
      `PUBLIC_SUBMISSIONS_URL points at a Supabase REST API (${url.origin}), whose calls need the project's publishable key: ` +
        'set SUPABASE_URL to that project and SUPABASE_PUBLISHABLE_KEY (or SUPABASE_ANON_KEY) to its key (see .env.example).',
    )
  }
  return { url: url.href, apikey: supabase.publicKey, turnstileSiteKey }
}
