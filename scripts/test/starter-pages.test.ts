import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { auditEntries } from '../src/content/edit.ts'
import { renderMarkdown } from '../src/content/markdown.ts'
import { pageCreateSchema } from '../src/content/schema.ts'
import { replacePages, starterPages } from '../src/content/starter-pages.ts'
import type { EmbeddedStore } from '../src/store/embedded.ts'
import { freshStore } from './support/fresh-store.ts'

// The neutral pages a new town starts with (issue 39, `roland town init`).

const town = { name: 'Juniper Flats', state: 'Colorado', county: 'Sage County' }
/** The paths of Roland's pages (the migration that gives a store without a town Roland's words). */
const seedPaths = async () => {
  const sql = await readFile(
    new URL('../../supabase/migrations/20261128002000_roland_town.sql', import.meta.url),
    'utf8',
  )
  const pages = sql.slice(sql.indexOf('insert into public.pages'), sql.indexOf('insert into public.town_settings'))
  return [...pages.matchAll(/^ {2}\('(\/[^']*)'/gm)].map(([, path]) => path).sort()
}

describe('starterPages', () => {
  test('gives every page the seed has, each valid for the pages schema', async () => {
    const pages = starterPages(town)
    expect(pages.map((page) => page.path).sort()).toEqual(await seedPaths())
    for (const page of pages) expect(pageCreateSchema.safeParse(page).success, page.path).toBe(true)
  })

  test("is written around the town's name, and names no part of Roland", () => {
    const text = JSON.stringify(starterPages(town))
    expect(text).toContain('Juniper Flats')
    expect(text).not.toMatch(/Roland|Arkansas|Pulaski|72135|Maumelle|Pinnacle|Little Rock/)
  })

  test('renders its Markdown to headings and site links', () => {
    const about = starterPages(town).find((page) => page.path === '/about')!
    expect(renderMarkdown(about.body ?? '')).toContain('<a href="/contact" class="link">Contact page</a>')
  })
})

describe('replacePages', () => {
  let store: EmbeddedStore
  beforeAll(async () => {
    store = await freshStore()
  })
  afterAll(async () => {
    await store?.close()
  })

  test("puts the starter pages in place of the seed's, in one audited change", async () => {
    const count = await replacePages(store, starterPages(town), { email: 'init@example.org', role: 'admin' })
    expect(count).toBe(starterPages(town).length)
    const rows = await store.call<Array<{ path: string; title: string }>>('page_rows', {})
    expect(rows.find((row) => row.path === '/')?.title).toBe('Juniper Flats, Colorado')
    expect(JSON.stringify(rows)).not.toMatch(/Roland|Arkansas|Pulaski|72135/)
    // The seed's pages went, the starter pages came, all in one change (one undo) by the operator.
    const [latest] = await auditEntries(store, { table: 'pages', limit: 1 })
    const entries = (await auditEntries(store, { table: 'pages', limit: 1000 })).filter((e) => e.txid === latest!.txid)
    expect(entries.every((entry) => entry.actor === 'init@example.org')).toBe(true)
    expect(entries.filter((entry) => entry.action === 'insert')).toHaveLength(count)
    expect(entries.filter((entry) => entry.action === 'delete').length).toBeGreaterThan(0)
  })

  test('refuses a page that is not valid, naming it, and changes nothing', async () => {
    const before = await store.call<unknown[]>('page_rows', {})
    await expect(
      replacePages(store, [{ path: '/Bad Path', title: 'x' }], { email: 'init@example.org', role: 'admin' }),
    ).rejects.toThrow(/The page \/Bad Path is not valid: path/)
    expect(await store.call<unknown[]>('page_rows', {})).toEqual(before)
  })
})
