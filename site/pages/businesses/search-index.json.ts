import type { APIRoute } from 'astro'
import { allBusinesses } from '@roland/scripts/catalog/queries'
import { getCatalog } from '../../lib/catalog.ts'
import { searchIndexJson } from '../../lib/search-index.ts'

/** /businesses/search-index.json: what the businesses page searches, fetched when the visitor starts to. */
export const GET: APIRoute = async () =>
  new Response(searchIndexJson(allBusinesses(await getCatalog())), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
