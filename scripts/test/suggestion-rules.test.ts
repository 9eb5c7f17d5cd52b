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
async function suggest(payload: Record<string, unknown>, sender: string): Promise<string> {
  try {
    return await store.asRole('anon', async (tx) => {
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
