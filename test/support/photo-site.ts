import path from 'node:path'
import { addPhoto } from '@roland/scripts/images/add-photo'
import { openEmbeddedStore } from '@roland/scripts/store/embedded'
import { buildSite } from './build-site.ts'
import { buildFixtureDataDir } from './fixture-catalog.ts'
import { drawPhoto } from './photo-variants.ts'
import { serveStatic, type StaticServer } from './static-server.ts'

// The fixture site with the photos of issue 17's report: Roland Auto Repair and Big Maumelle
// Insurance get 2400×1600 photos of about 1.2 MB each, added through the real ingest (addPhoto:
// the derivatives and placeholder a crawl or an upload makes), so what is measured is what ships.
// Lighthouse measures it (pnpm lhci: test/support/lhci.ts), and so can a person
// (test/support/lighthouse-photos.ts serves it until stopped).

/** The business pages with the large photos. */
export const photoPages = ['/business/roland-auto-repair', '/business/big-maumelle-insurance']

/** Builds the photo site under root and serves it on 127.0.0.1; the caller closes the server. */
export async function servePhotoSite(
  root: string,
  log: (line: string) => void = () => {},
): Promise<StaticServer & { outDir: string }> {
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
        const original = await drawPhoto({
          name: `${slug}-${name}-large`,
          width: 2400,
          height: 1600,
          sky: [110 + index * 20, 160, 210],
          ground: [70, 80 + index * 10, 50],
          grain: true,
        })
        await addPhoto(store, {
          businessId,
          bytes: original,
          name: `${slug}-${name}-large.jpg`,
          altText: `${slug} ${name}`,
          imageType: index === 0 ? 'hero' : 'gallery',
          isPrimary: index === 0,
          sortOrder: index,
        })
        log(`${slug}-${name}-large: original ${original.byteLength} bytes`)
      }
    }
  } finally {
    await store.close()
  }
  const outDir = path.join(root, 'site')
  // Compressed as a host serves it: `pnpm lhci` weighs what a visitor's phone downloads.
  const server = await serveStatic(outDir, { compress: true })
  const build = await buildSite({ outDir, dataDir, siteUrl: server.url })
  if (build.code !== 0) {
    await server.close()
    throw new Error(`The photo site did not build:\n${build.output}`)
  }
  return { ...server, outDir }
}
