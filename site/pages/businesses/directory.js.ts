import type { APIRoute } from 'astro'
import code from '../../islands/business-directory.ts?inline-script'

/** /businesses/directory.js: the businesses search, fetched when the visitor starts to search. */
export const GET: APIRoute = () => new Response(code, { headers: { 'content-type': 'text/javascript; charset=utf-8' } })
