import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { buildSite } from './build-site.ts'
import { buildFixtureDataDir, storeDerivatives } from './fixture-catalog.ts'
import { makePhoto } from './photo-variants.ts'
import { serveStatic } from './static-server.ts'

// Serves the fixture site with the photos of issue 17's report: Roland Auto Repair and Big Maumelle
// Insurance get 2400×1600 photos of about 1.2 MB each, processed into derivatives. Run it, then
// point Lighthouse at the pages it prints (see site/README.md); stop it with Ctrl-C.
//   pnpm exec node test/support/lighthouse-photos.ts

const root = await mkdtemp(path.join(tmpdir(), 'roland-lighthouse-'))
const dataDir = path.join(root, 'data')
await buildFixtureDataDir(dataDir)
const store = await openEmbeddedStore({ dir: dataDir })
try {
  const photos: Record<string, string[]> = {
    'roland-auto-repair': ['shop', 'bay', 'lift', 'lobby'],
    'big-maumelle-insurance': ['office'],
  }
  for (const [slug, names] of Object.entries(photos)) {
    const { rows } = await store.db.query<{ id: string }>('select id from businesses where slug = $1', [slug])
    const businessId = rows[0]!.id
    await store.db.query(`delete from business_images where business_id = $1 and image_type <> 'logo'`, [businessId])
    for (const [index, name] of names.entries()) {
      const photo = {
        name: `${slug}-${name}-large`,
        width: 2400,
        height: 1600,
        sky: [110 + index * 20, 160, 210],
        ground: [70, 80 + index * 10, 50],
      } as const
      const { original, processed } = await makePhoto({
        ...photo,
        sky: [...photo.sky],
        ground: [...photo.ground],
        grain: true,
      })
      const objectPath = `business-images/${photo.name}.jpg`
      await store.files.put(objectPath, original, { contentType: 'image/jpeg' })
      const { id } = await store.addImage({
        business_id: businessId,
        image_url: store.files.publicUrl(objectPath),
        alt_text: `${slug} ${name}`,
        image_type: index === 0 ? 'hero' : 'gallery',
        is_primary: index === 0,
        sort_order: index,
        metadata: {},
      })
      await storeDerivatives(store, id, processed)
      console.log(`${photo.name}: original ${original.byteLength} bytes`)
    }
  }
} finally {
  await store.close()
}
const outDir = path.join(root, 'site')
const server = await serveStatic(outDir)
const build = await buildSite({ outDir, dataDir, siteUrl: server.url })
if (build.code !== 0) throw new Error(build.output)
console.log(
  `serving ${outDir} at ${server.url}: ${server.url}/business/roland-auto-repair, ${server.url}/professional-services`,
)
