import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditEntries } from '../src/content/edit.ts'
import { starterPages } from '../src/content/starter-pages.ts'
import { initTown } from '../src/content/town-init.ts'
import { findTown } from '../src/content/town.ts'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// `roland town init` is one transaction (issue 39): the settings, the starter content and the pages
// are written together, so a failure in any part leaves the store as it was.

const settings = {
  name: 'Juniper Flats',
  state: 'Colorado',
  state_code: 'CO',
  zip: '80421',
  county: 'Sage County',
  tagline: 'Colorado Mountain Community',
  time_zone: 'America/Denver',
  country: 'US',
  latitude: 39.4,
  longitude: -105.4,
  coordinator_name: 'Alex Rivera',
  coordinator_email: 'events@juniper-flats.example',
  contact_email: null,
  contact_phone: null,
}
const actor = { email: 'init@example.org', role: 'admin' as const }

let store: EmbeddedStore
beforeAll(async () => {
  store = await freshStore()
})
afterAll(async () => {
  await store?.close()
})

/** What an init may change: the settings, the pages, the categories' words and the content it removes. */
async function snapshot() {
  const { rows } = await store.db.query<{ counts: string }>(
    `select json_build_object('attractions', (select count(*) from public.attractions),
                              'events', (select count(*) from public.community_events),
                              'categories', (select json_agg(description order by slug) from public.location_categories))::text as counts`,
  )
  return { town: await findTown(store), pages: await store.call('page_rows', {}), counts: rows[0]!.counts }
}

describe('initTown', () => {
  test('leaves the store as it was when a page is refused, settings and all', async () => {
    const before = await snapshot()
    const pages = starterPages(settings)
    // Two pages at one path: the pages table refuses the second, after the settings were written.
    const outcome = await store.call<{ status: string; message: string }>('init_town', {
      settings,
      content: { pages: [...pages, pages[0]] },
      force: true,
      actor,
    })
    expect(outcome).toMatchObject({ status: 'invalid', message: expect.stringMatching(/pages_path_key|duplicate/) })
    expect(await snapshot()).toEqual(before)
    expect((await findTown(store))?.name).toBe('Roland')
  })

  test('writes the settings and the starter pages in one audited change', async () => {
    const { pages } = await initTown(store, settings, { force: true, actor })
    expect(pages).toBe(starterPages(settings).length)
    expect((await findTown(store))?.name).toBe('Juniper Flats')
    const [latest] = await auditEntries(store, { limit: 1 })
    const change = (await auditEntries(store, { limit: 1000 })).filter((entry) => entry.txid === latest!.txid)
    const tables = new Set(change.map((entry) => entry.table))
    expect(tables).toContain('town_settings')
    expect(tables).toContain('pages')
    expect(change.filter((entry) => entry.table === 'pages' && entry.action === 'insert')).toHaveLength(pages)
  })
})
