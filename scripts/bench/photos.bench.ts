import sharp from 'sharp'
import { addPhoto } from '../src/images/add-photo.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { measure, table } from './measure.ts'

// The image pipeline at ingest: businesses with three large photos each (2400×1600 JPEGs of about a
// megabyte, like a restaurant's own website has), added as an upload or a crawl adds them, into an
// in-memory store. Prints the time per photo and what the derivatives weigh against the originals.
// ROLAND_BENCH_PHOTO_BUSINESSES sets the count (default 200 businesses, 600 photos).

const BUSINESSES = Number(process.env.ROLAND_BENCH_PHOTO_BUSINESSES ?? 200)
const PHOTOS_EACH = 3

/** A photo-like 2400×1600 JPEG: smooth random shapes with grain, different every call. */
async function largePhoto(): Promise<Buffer> {
  const blobs = await sharp({
    create: {
      width: 48,
      height: 32,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .resize(2400, 1600, { kernel: 'cubic' })
    .raw()
    .toBuffer()
  const grain = await sharp({
    create: {
      width: 2400,
      height: 1600,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 128, sigma: 12 },
    },
  })
    .raw()
    .toBuffer()
  for (let i = 0; i < blobs.length; i++) blobs[i] = Math.max(0, Math.min(255, blobs[i]! + grain[i]! - 128))
  return sharp(blobs, { raw: { width: 2400, height: 1600, channels: 3 } })
    .jpeg({ quality: 85 })
    .toBuffer()
}

/** Ingest time per photo, and the bytes of originals and derivatives, for BUSINESSES × 3 photos. */
export async function run(): Promise<void> {
  const store = await openEmbeddedStore()
  try {
    const values = Array.from({ length: BUSINESSES }, (_, i) => `('photo-bench-${i}', 'Photo Bench ${i}', 'Business')`)
    const { rows } = await store.db.query<{ id: string }>(
      `insert into businesses (slug, name, category) values ${values.join(', ')} returning id`,
    )
    const photos = await Promise.all(Array.from({ length: 8 }, largePhoto))
    const times: number[] = []
    let originalBytes = 0
    let derivativeBytes = 0
    const byVariant = new Map<string, number>()
    const total = await measure(async () => {
      for (const [b, { id }] of rows.entries()) {
        for (let p = 0; p < PHOTOS_EACH; p++) {
          // Bytes after a JPEG's end marker are ignored by decoders: each photo is its own file.
          const bytes = Buffer.concat([photos[(b * PHOTOS_EACH + p) % photos.length]!, Buffer.from(`${b}/${p}`)])
          const one = await measure(() =>
            addPhoto(store, {
              businessId: id,
              bytes,
              name: `photo-${b}-${p}.jpg`,
              altText: null,
              imageType: p === 0 ? 'hero' : 'gallery',
              isPrimary: p === 0,
              sortOrder: p,
            }),
          )
          times.push(one.seconds)
          originalBytes += bytes.byteLength
        }
      }
    })
    for (const image of await store.listImages()) {
      for (const variant of image.variants) {
        derivativeBytes += variant.bytes
        const key = `${variant.format} ${variant.width}w`
        byVariant.set(key, (byVariant.get(key) ?? 0) + variant.bytes)
      }
    }
    const count = times.length
    const sorted = [...times].sort((a, b) => a - b)
    const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`
    table([
      {
        photos: count,
        'total s': total.seconds.toFixed(1),
        'mean s/photo': (total.seconds / count).toFixed(2),
        'median s': sorted[Math.floor(count / 2)]!.toFixed(2),
        'p95 s': sorted[Math.min(count - 1, Math.floor(count * 0.95))]!.toFixed(2),
        'peak RSS MB': Math.round(total.peakRssMb),
      },
    ])
    process.stdout.write('\n')
    table([
      {
        originals: kb(originalBytes),
        'per original': kb(originalBytes / count),
        'all derivatives': kb(derivativeBytes),
        'derivatives / originals': (derivativeBytes / originalBytes).toFixed(2),
      },
    ])
    process.stdout.write('\n')
    table(
      [...byVariant.entries()]
        .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
        .map(([variant, bytes]) => ({ derivative: variant, 'mean size': kb(bytes / count) })),
    )
  } finally {
    await store.close()
  }
}
