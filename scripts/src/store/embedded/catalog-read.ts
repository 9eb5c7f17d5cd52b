import type { Transaction } from '@electric-sql/pglite'
import { parseCatalog, type Business, type Catalog } from '../../catalog/types.ts'
import type { CatalogMark } from '../types.ts'

// The public catalog as the site reads it (the anon role, so row-level security decides what shows).
// The businesses come through a cursor, a page at a time, in list order, each as JSON text (parsed
// here: PGlite's own parsing of a json column is slower): the database builds what it returns in
// its own memory, which never shrinks, and one JSON of every business took 2 GB of WebAssembly
// memory at 100,000 businesses. Each business's services, images and hours are aggregated once per
// table and joined, rather than looked up business by business: at 10,000 businesses this reads
// the catalog in about half the time. A business has the columns businessSchema names
// (catalog/types.ts), no more.
const catalogPageSize = 2000

/**
 * The active businesses as the site lists them, in list order: all of them, or (`only`) those whose
 * ids are in the array parameter $1.
 */
export function listedBusinessesSql(only = false): string {
  const among = (column: string) => (only ? `where ${column} = any($1::uuid[])` : '')
  return `
  with services as (
    select s.business_id, json_agg(json_build_object('service_name', s.service_name, 'description', s.description,
             'is_featured', s.is_featured, 'sort_order', s.sort_order) order by s.sort_order, s.service_name) as list
    from public.business_services s ${among('s.business_id')} group by s.business_id
  ), images as (
    select i.business_id, json_agg(i order by i.sort_order, i.created_at) as list
    from public.business_images i ${among('i.business_id')} group by i.business_id
  ), hours as (
    select h.business_id, json_agg(json_build_object('day_of_week', h.day_of_week, 'opens_at', h.opens_at,
             'closes_at', h.closes_at, 'is_closed', h.is_closed) order by h.day_of_week, h.opens_at) as list
    from public.business_hours h ${among('h.business_id')} group by h.business_id
  )
  select b.id::text as id, row_to_json(b)::text as business from (
    select bz.id, bz.slug, bz.name, bz.category, bz.short_description, bz.full_description, bz.address, bz.phone,
      bz.website, bz.hours, bz.is_featured, bz.is_active, bz.rating, bz.price_range, bz.verified_at, bz.search_words,
      public.website_hidden(bz) as website_hidden,
      coalesce(s.list, '[]') as services, coalesce(i.list, '[]') as images, coalesce(h.list, '[]') as hours_detail
    from public.businesses bz
      left join services s on s.business_id = bz.id
      left join images i on i.business_id = bz.id
      left join hours h on h.business_id = bz.id
    where bz.is_active ${only ? 'and bz.id = any($1::uuid[])' : ''}
  ) b
  order by b.name, b.slug`
}

/** Where the data stands (as the service role): the audit log's last entry, and the findings' digest. */
export const catalogStateSql = `
  select last.id::text as audit_id, last.at::text as audit_at,
    (select md5(coalesce(string_agg(f::text, ',' order by f.id), '')) from public.listing_findings f) as findings
  from (select 1) one
    left join lateral (select l.id, l.at from public.audit_log l order by l.id desc limit 1) last on true`

export interface CatalogState {
  audit_id: string | null
  audit_at: string | null
  findings: string
}

/**
 * The ids of the businesses changed since an earlier read (as the service role), by the audit log;
 * null when that cannot be told: no earlier read of this database, the freshness findings changed,
 * or the audit log no longer holds the entry that read stopped at as it was (a restore).
 */
export async function changedSince(
  tx: Transaction,
  mark: CatalogMark | undefined,
  state: CatalogState,
  location: string,
): Promise<string[] | null> {
  if (!mark || mark.location !== location || mark.findings !== state.findings || state.audit_id === null) return null
  if (mark.auditId === state.audit_id) return mark.auditAt === state.audit_at ? [] : null
  const { rows } = await tx.query<{ at: string }>('select at::text from public.audit_log where id = $1', [mark.auditId])
  if (rows[0]?.at !== mark.auditAt) return null
  const changed = await tx.query<{ id: string | null }>(
    `select distinct coalesce(case when table_name = 'businesses' then row_id end,
                              after ->> 'business_id', before ->> 'business_id') as id
       from public.audit_log
      where id > $1 and table_name in ('businesses', 'business_services', 'business_images', 'business_hours')`,
    [mark.auditId],
  )
  return changed.rows.flatMap((row) => (row.id === null ? [] : [row.id]))
}

/** Passes each listed business's id and JSON to onRow, in list order (as the anon role). */
export async function listAll(tx: Transaction, onRow: (id: string, json: string) => void): Promise<void> {
  // All of it is fetched: plan for the whole result, not for its first rows (which joined each
  // business to the lists of services, images and hours one by one).
  await tx.exec('set local cursor_tuple_fraction = 1')
  await tx.exec(`declare listed_businesses no scroll cursor for ${listedBusinessesSql()}`)
  for (;;) {
    const { rows } = await tx.query<{ id: string; business: string }>(
      `fetch forward ${catalogPageSize} from listed_businesses`,
    )
    if (rows.length === 0) break
    for (const row of rows) onRow(row.id, row.business)
  }
  await tx.exec('close listed_businesses')
}

/** Every listed business's JSON, by id, in list order (as the anon role). */
export async function listedAll(tx: Transaction): Promise<Map<string, string>> {
  const businesses = new Map<string, string>()
  await listAll(tx, (id, json) => businesses.set(id, json))
  return businesses
}

/** The rest of the catalog (as the anon role): categories, attractions, events, pages and alerts. */
export async function catalogRest(tx: Transaction): Promise<object> {
  const { rows } = await tx.query<{ rest: string }>(catalogRestSql)
  return JSON.parse(rows[0]!.rest) as object
}

/**
 * The listed businesses, in list order, as an earlier read had them but for the `changed` ones,
 * read again (as the anon role); null if the list does not add up (all of it is read then).
 */
export async function listedAgain(
  tx: Transaction,
  before: Map<string, string>,
  changed: string[],
): Promise<Map<string, string> | null> {
  const fresh = new Map<string, string>()
  if (changed.length > 0) {
    const { rows } = await tx.query<{ id: string; business: string }>(listedBusinessesSql(true), [changed])
    for (const row of rows) fresh.set(row.id, row.business)
  }
  const gone = new Set(changed)
  const { rows: order } = await tx.query<{ id: string }>(
    'select id::text from public.businesses where is_active order by name, slug',
  )
  const businesses = new Map<string, string>()
  for (const { id } of order) {
    const json = fresh.get(id) ?? (gone.has(id) ? undefined : before.get(id))
    if (json === undefined) return null
    businesses.set(id, json)
  }
  return businesses
}

const catalogRestSql = `
  select json_build_object(
    'town', (select to_json(t) from public.town_settings t where t.id = 1),
    'categories', coalesce((select json_agg(c order by c.sort_order, c.name) from public.location_categories c), '[]'),
    'attractions', coalesce((select json_agg(a order by a.sort_order, a.name) from public.attractions a where a.is_active), '[]'),
    'events', coalesce((select json_agg(e order by e.starts_at) from public.community_events e where e.is_active), '[]'),
    'pages', coalesce((select json_agg(json_build_object('path', p.path, 'title', p.title, 'description', p.description,
                 'intro', p.intro, 'body', p.body, 'items', p.items) order by p.path)
               from public.pages p where p.is_published), '[]'),
    'alerts', coalesce((select json_agg(to_json(a)::jsonb - 'created_at' || jsonb_build_object('messages',
                 coalesce((select jsonb_agg(to_jsonb(m) - 'alert_id' order by m.sequence)
                             from public.alert_messages m where m.alert_id = a.id), '[]'::jsonb))
                 order by a.published_at desc, a.id)
               from public.alerts a where a.status in ('published', 'ended')), '[]')
  )::text as rest`

/**
 * The catalog of a read that follows an earlier one (Store.followCatalog), and each of its
 * businesses by id (CatalogMark.parsed): a business whose JSON is as that read had it is taken as
 * it parsed it, the others and the rest of the catalog are parsed. Parsing every business again
 * took 2 s of a rebuild's critical path at 100,000 businesses.
 */
export function parseFollowed(
  businesses: ReadonlyMap<string, string>,
  rest: object,
  before: CatalogMark | undefined,
  location: string,
): { catalog: Catalog; parsed: Map<string, Business> } {
  const kept = [...businesses].map(([id, json]) =>
    before?.businesses.get(id) === json ? before.parsed.get(id) : undefined,
  )
  const fresh = [...businesses.values()].filter((_, i) => !kept[i]).map((json) => JSON.parse(json) as unknown)
  const catalog = parseCatalog({ businesses: fresh, ...rest }, location)
  let next = 0
  const listed = kept.map((business) => business ?? catalog.businesses[next++]!)
  const ids = [...businesses.keys()]
  return {
    catalog: { ...catalog, businesses: listed },
    parsed: new Map(listed.map((business, i) => [ids[i]!, business])),
  }
}
