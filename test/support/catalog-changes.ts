import { openEmbeddedStore } from '@roland/scripts/store/embedded'

// Changes to a fixture data folder between two builds: more businesses than the fixture's ten
// (to fill several pages of the businesses list), an edited business, a closed one.

/** A business to add: what the list, the card and the build's checks need. */
export interface AddedBusiness {
  slug: string
  name: string
  category: string
  short_description: string
  address: string
}

/** Makes `count` businesses named "{prefix} 01", "{prefix} 02"…, all in one category. */
export function numberedBusinesses(
  prefix: string,
  count: number,
  category = 'Shopping & Convenience',
): AddedBusiness[] {
  return Array.from({ length: count }, (_, index) => {
    const number = String(index + 1).padStart(2, '0')
    return {
      slug: `${prefix.toLowerCase().replace(/\s+/g, '-')}-${number}`,
      name: `${prefix} ${number}`,
      category,
      short_description: `Shop number ${number} on the road to the lake.`,
      address: `${100 + index} Highway 300, Roland, AR 72135`,
    }
  })
}

async function withStore(
  dataDir: string,
  work: (query: (sql: string, params: unknown[]) => Promise<unknown>) => Promise<void>,
) {
  const store = await openEmbeddedStore({ dir: dataDir })
  try {
    await work((sql, params) => store.db.query(sql, params))
  } finally {
    await store.close()
  }
}

/** Adds active businesses to the embedded store in dataDir. */
export async function addBusinesses(dataDir: string, businesses: AddedBusiness[]): Promise<void> {
  await withStore(dataDir, async (query) => {
    for (const b of businesses) {
      await query(
        'insert into businesses (slug, name, category, short_description, address) values ($1, $2, $3, $4, $5)',
        [b.slug, b.name, b.category, b.short_description, b.address],
      )
    }
  })
}

/** Gives a business a new short description, as an operator's edit would. */
export async function describeBusiness(dataDir: string, slug: string, shortDescription: string): Promise<void> {
  await withStore(dataDir, (query) =>
    query('update businesses set short_description = $2, updated_at = now() where slug = $1', [
      slug,
      shortDescription,
    ]).then(() => undefined),
  )
}

/** Gives a business a new name. */
export async function renameBusiness(dataDir: string, slug: string, name: string): Promise<void> {
  await withStore(dataDir, (query) =>
    query('update businesses set name = $2 where slug = $1', [slug, name]).then(() => undefined),
  )
}

/** Marks a business inactive: it must disappear from the site. */
export async function closeBusiness(dataDir: string, slug: string): Promise<void> {
  await withStore(dataDir, (query) =>
    query('update businesses set is_active = false, updated_at = now() where slug = $1', [slug]).then(() => undefined),
  )
}

/** Runs one SQL statement against the embedded store in dataDir. */
export async function runSql(dataDir: string, sql: string, params: unknown[] = []): Promise<void> {
  await withStore(dataDir, (query) => query(sql, params).then(() => undefined))
}
