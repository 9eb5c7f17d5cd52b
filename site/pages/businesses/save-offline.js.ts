import type { APIRoute } from 'astro'
import code from '../../islands/save-offline.ts?inline-script'

/** /businesses/save-offline.js: "Save for offline", fetched when the visitor first presses it. */
export const GET: APIRoute = () => new Response(code, { headers: { 'content-type': 'text/javascript; charset=utf-8' } })
