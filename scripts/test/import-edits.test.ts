import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { contentRows, createRow, editRow, type ContentRow } from '../src/content/edit.ts'
import { runMigration } from '../src/migrate/job.ts'
import { type EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// Re-importing Roland.txt keeps operators' edits (issue 18), in the embedded Postgres.

const operator = { email: 'coordinator@roland.example', role: 'editor' } as const

const rolandTxt = (phone: string, hours = 'Hours: Mon-Fri 8am-5pm') =>
  new TextEncoder().encode(
    [
      `Roland Vet Clinic - Caring for the pets and livestock of the Roland valley since 1988\n${phone}\n` +
        `www.rolandvet.example\n18000 Highway 300, Roland, AR 72135\n${hours}\nFriendly care for every animal in the valley.`,
      `Lakeside Bait Shop - Live bait, tackle and ice for Lake Maumelle anglers\n(501) 555-0300\n` +
        `19000 Highway 10, Roland, AR 72135\nHours: Daily 5am-7pm\nEverything a day on the lake needs.`,
    ].join('\n\n'),
  )

let store: EmbeddedStore
const vet = async () =>
  (await contentRows(store, 'businesses')).find((b) => b.slug === 'roland-vet-clinic') as ContentRow & {
    phone: string
    hours: string
    is_active: boolean
  }

beforeAll(async () => {
  store = await freshStore()
  await runMigration({ store, source: { bytes: rolandTxt('(501) 555-0100') } })
  const clinic = await vet()
  await editRow(store, 'businesses', clinic.id, { phone: '(501) 555-0111' }, null, operator)
})

afterAll(async () => {
  await store?.close()
})

describe('importing Roland.txt again', () => {
  test('keeps a phone number an operator changed, and lists the conflict in the dry run', async () => {
    const dry = await runMigration({ store, source: { bytes: rolandTxt('(501) 555-0199') }, dryRun: true })
    expect(dry.conflicts).toEqual([
      {
        slug: 'roland-vet-clinic',
        name: 'Roland Vet Clinic',
        field: 'phone',
        current: '(501) 555-0111',
        incoming: '(501) 555-0199',
      },
    ])
    expect(dry.summary.conflicts).toBe(1)
    await runMigration({ store, source: { bytes: rolandTxt('(501) 555-0199') } })
    expect((await vet()).phone).toBe('(501) 555-0111')
  })

  test('still takes the file’s value for fields nobody edited', async () => {
    await runMigration({ store, source: { bytes: rolandTxt('(501) 555-0199', 'Hours: Mon-Sat 8am-6pm') } })
    const clinic = await vet()
    expect(clinic.hours).toBe('Mon-Sat 8am-6pm')
    expect(clinic.phone).toBe('(501) 555-0111')
  })

  test('reports nothing when the file agrees with the edit', async () => {
    const dry = await runMigration({
      store,
      source: { bytes: rolandTxt('(501) 555-0111', 'Hours: Mon-Sat 8am-6pm') },
      dryRun: true,
    })
    expect(dry.conflicts).toEqual([])
  })

  test('replaces the edit with --overwrite-edits', async () => {
    const result = await runMigration({
      store,
      source: { bytes: rolandTxt('(501) 555-0199', 'Hours: Mon-Sat 8am-6pm') },
      overwriteEdits: true,
    })
    expect(result.conflicts.map((c) => c.field)).toEqual(['phone'])
    expect((await vet()).phone).toBe('(501) 555-0199')
  })

  test('never deactivates a business added in the console', async () => {
    await createRow(
      store,
      'businesses',
      { slug: 'roland-feed-and-seed', name: 'Roland Feed & Seed', metadata: { source: 'console' } },
      operator,
    )
    const result = await runMigration({ store, source: { bytes: rolandTxt('(501) 555-0199') } })
    expect(result.deactivated).toEqual([])
    const feed = (await contentRows(store, 'businesses')).find((b) => b.slug === 'roland-feed-and-seed')
    expect(feed).toMatchObject({ is_active: true })
  })
})
