import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// submit_suggestion's rules are one SQL function each (20261201000400_suggestion_rules.sql), so a
// migration that changes one rule redefines only that function. Here such a migration, the phone
// rule alone (fixtures/phone-rule-migration.sql, also shown in the README), is applied to the real
// migrations in the embedded Postgres, and submit_suggestion follows the new rule and still the others.

const phoneRuleMigration = new URL('./fixtures/phone-rule-migration.sql', import.meta.url)

let store: EmbeddedStore

beforeAll(async () => {
  store = await freshStore()
})

afterAll(async () => {
  await store?.close()
})

/** Calls submit_suggestion as anon, as PostgREST does; answers the id or the refusal's message. */
async function suggest(payload: Record<string, unknown>, sender: string, target = store): Promise<string> {
  try {
    return await target.asRole('anon', async (tx) => {
      await tx.query(`select set_config('request.headers', $1, true)`, [JSON.stringify({ 'x-forwarded-for': sender })])
      const { rows } = await tx.query<{ id: string }>(`select public.submit_suggestion('new-business', $1) as id`, [
        JSON.stringify(payload),
      ])
      return `stored ${rows[0]!.id}`
    })
  } catch (error) {
    return (error as Error).message
  }
}

describe('a migration that changes only the phone rule', () => {
  test('is under 30 lines and redefines no other function', async () => {
    const sql = await readFile(phoneRuleMigration, 'utf8')
    expect(sql.trimEnd().split('\n').length).toBeLessThan(30)
    expect(sql.match(/create or replace function [\w.]+/gi)).toEqual([
      'create or replace function public.suggested_phone_problem',
    ])
  })

  test('makes submit_suggestion refuse by the new rule, and the other rules hold as before', async () => {
    const premium = { name: 'Psychic Hotline', phone: '(900) 555-0123' }
    expect(await suggest(premium, '203.0.113.1')).toMatch(/^stored /)

    await store.db.exec(await readFile(phoneRuleMigration, 'utf8'))

    expect(await suggest(premium, '203.0.113.2')).toBe('The phone must not be a premium-rate (900) number.')
    expect(await suggest({ name: 'Feed Store', phone: '(501) 555-0123' }, '203.0.113.3')).toMatch(/^stored /)
    expect(await suggest({ name: 'Feed Store', phone: 'call us' }, '203.0.113.4')).toBe(
      'The phone must be a US phone number, such as (501) 555-0123.',
    )
    expect(await suggest({ name: 'Feed Store', website: 'ftp://feed.example' }, '203.0.113.5')).toBe(
      'The website must be an http:// or https:// address, such as https://example.com.',
    )
    expect(await suggest({ name: 'Feed Store', email: 'nobody' }, '203.0.113.6')).toBe(
      'The email must be an address such as owner@example.com.',
    )
    expect(await suggest({ name: 'x'.repeat(5000) }, '203.0.113.7')).toMatch(/^A field is too long/)
  })
})

// One rule for what an email address looks like (20261202000200_shared_email_rule.sql): a visitor's
// suggestion and Notify me both ask public.email_problem, so a migration that redefines it alone
// changes both, each still in its own words.
describe('the one email rule of suggestions and Notify me', () => {
  /** Subscribes as anon, as PostgREST does; answers 'subscribed' or the refusal's message. */
  async function subscribe(target: EmbeddedStore, email: string, sender: string): Promise<string> {
    try {
      return await target.asRole('anon', async (tx) => {
        await tx.query(`select set_config('request.headers', $1, true)`, [
          JSON.stringify({ 'x-forwarded-for': sender }),
        ])
        await tx.query(`select public.subscribe($1, '["alerts"]'::jsonb)`, [email])
        return 'subscribed'
      })
    } catch (error) {
      return (error as Error).message
    }
  }

  test('is one function, and a migration that changes it changes what both take', async () => {
    const notify = await readFile(
      new URL('../../supabase/migrations/20261201000200_notify.sql', import.meta.url),
      'utf8',
    )
    const shared = await readFile(
      new URL('../../supabase/migrations/20261202000200_shared_email_rule.sql', import.meta.url),
      'utf8',
    )
    // The address pattern is written once in the migration that shares it: email_problem's.
    expect(shared.match(/\[\^@\\s\]\+@/g)).toHaveLength(1)
    expect(shared).toMatch(/create or replace function public\.subscription_email_problem/)
    expect(notify).toMatch(/create or replace function public\.subscription_email_problem/)

    const own = await freshStore()
    try {
      const suggestAt = (email: string, sender: string) => suggest({ name: 'Feed Store', email }, sender, own)
      expect(await suggestAt('owner@feed.invalid', '198.51.100.1')).toMatch(/^stored /)
      expect(await subscribe(own, 'me@feed.invalid', '198.51.100.2')).toBe('subscribed')
      expect(await subscribe(own, 'nobody', '198.51.100.3')).toBe(
        'The email must be an address such as you@example.com.',
      )

      // A later rule: no address in the .invalid domain (RFC 2606) is anybody's.
      await own.db.exec(`
        create or replace function public.email_problem(email text, label text, example text)
        returns text language sql immutable set search_path = '' as $$
          select case when email !~* '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' or email ~* '\\.invalid$'
            then format('%s must be an address such as %s.', label, example) end
        $$;`)

      expect(await suggestAt('owner@farm.invalid', '198.51.100.4')).toBe(
        'The email must be an address such as owner@example.com.',
      )
      expect(await subscribe(own, 'you@farm.invalid', '198.51.100.5')).toBe(
        'The email must be an address such as you@example.com.',
      )
      expect(await subscribe(own, 'you@farm.example', '198.51.100.6')).toBe('subscribed')
      expect(await subscribe(own, '', '198.51.100.7')).toBe('Enter your email address, such as you@example.com.')
    } finally {
      await own.close()
    }
  })
})
