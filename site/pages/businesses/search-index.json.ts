import type { APIRoute } from 'astro'
import { getSearchIndex } from '../../lib/search-build.ts'

/** /businesses/search-index.json: the search index's manifest, fetched when the visitor starts to search. */
export const GET: APIRoute = async () =>
  new Response(JSON.stringify((await getSearchIndex()).manifest), {
    headers: { 'content-type': 'application/json; charset=utf-8' },
  })
