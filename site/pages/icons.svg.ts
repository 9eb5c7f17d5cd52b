import type { APIRoute } from 'astro'
import { iconSprite } from '../lib/icons.ts'

/** /icons.svg: the sprite of the site's icons, which every page's icons refer to (lib/icons.ts). */
export const GET: APIRoute = () => new Response(iconSprite(), { headers: { 'content-type': 'image/svg+xml' } })
