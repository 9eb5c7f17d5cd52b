import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { photoPages, servePhotoSite } from './photo-site.ts'

// Serves the fixture site with large photos (photo-site.ts) until stopped with Ctrl-C, for a
// person to point Lighthouse or a browser at (see site/README.md). `pnpm lhci` does the same
// measurement unattended.
//   pnpm exec node test/support/lighthouse-photos.ts

const root = await mkdtemp(path.join(tmpdir(), 'roland-lighthouse-'))
const server = await servePhotoSite(root, (line) => console.log(line))
console.log(`serving ${server.outDir} at ${server.url}: ${photoPages.map((page) => server.url + page).join(', ')}`)
