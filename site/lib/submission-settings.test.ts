import { describe, expect, test } from 'vitest'
import { submissionSettings } from './submission-settings.ts'

describe('submissionSettings', () => {
  test('is null without PUBLIC_SUBMISSIONS_URL: the forms stay email links', () => {
    expect(submissionSettings({})).toBeNull()
    expect(submissionSettings({ PUBLIC_SUBMISSIONS_URL: ' ' })).toBeNull()
  })

  test("takes the console's public route as it is, with the Turnstile site key when set", () => {
    expect(
      submissionSettings({
        PUBLIC_SUBMISSIONS_URL: 'http://127.0.0.1:4322/api/public/submissions',
        PUBLIC_TURNSTILE_SITE_KEY: '0x4AAA',
      }),
    ).toEqual({ url: 'http://127.0.0.1:4322/api/public/submissions', apikey: null, turnstileSiteKey: '0x4AAA' })
  })

  test("sends Supabase's publishable key (or the legacy anon key) to its RPC endpoint", () => {
    const url = 'https://abcd.supabase.co/rest/v1/rpc/submit_suggestion'
    expect(
      submissionSettings({
        PUBLIC_SUBMISSIONS_URL: url,
        SUPABASE_URL: 'https://abcd.supabase.co',
        SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x',
      }),
    ).toEqual({ url, apikey: 'sb_publishable_x', turnstileSiteKey: null })
    expect(
      submissionSettings({
        PUBLIC_SUBMISSIONS_URL: url,
        SUPABASE_URL: 'https://abcd.supabase.co/',
        SUPABASE_ANON_KEY: 'eyJ',
      }),
    ).toMatchObject({ apikey: 'eyJ' })
  })

  test('refuses what cannot work, saying what to set', () => {
    expect(() => submissionSettings({ PUBLIC_SUBMISSIONS_URL: 'console/api' })).toThrow(
      /PUBLIC_SUBMISSIONS_URL is not a URL.*\/api\/public\/submissions/,
    )
    expect(() => submissionSettings({ PUBLIC_SUBMISSIONS_URL: 'ftp://example.com/x' })).toThrow(/http\(s\)/)
    expect(() =>
      submissionSettings({ PUBLIC_SUBMISSIONS_URL: 'https://abcd.supabase.co/rest/v1/rpc/submit_suggestion' }),
    ).toThrow(/set SUPABASE_URL to that project and SUPABASE_PUBLISHABLE_KEY/)
  })
})
