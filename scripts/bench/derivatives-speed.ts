import sharp, { type Sharp } from 'sharp'
import { ssim } from 'ssim.js'
import {
  makeDerivatives,
  PHOTO_ENCODING,
  type DerivativeEncoding,
  type Derivatives,
} from '../src/images/derivatives.ts'
import { storagePathOf } from '../src/images/optimize.ts'
import { folderStorage } from '../src/store/folder-storage.ts'
import type { FileStorage } from '../src/store/types.ts'
import { percentile, table } from './measure.ts'

// Issue 31: a photo's derivatives against one sharp 1440-px JPEG re-encode of the same photo, timed
// in the same run, one after the other, so that the ratio holds on a loaded machine; and what each
// derivative weighs and how like the original it looks (SSIM over luma, against the original
// resized to the derivative's size), for the settings before issue 31 and for today's.

/** The settings before issue 31: AVIF effort 2 in 4:4:4, WebP effort 4, every width from the full picture, one encode at a time. */
export const BASELINE_ENCODING: DerivativeEncoding = {
  ...PHOTO_ENCODING,
  avif: { quality: 50, effort: 2, chromaSubsampling: '4:4:4' },
  webp: { quality: 72, effort: 4 },
  jpeg: { quality: 76, progressive: true },
  cascade: false,
  parallel: false,
}

/** Times fn by the clock and by the CPU time of the whole process (libvips' and libaom's threads included). */
async function timed(fn: () => Promise<unknown>): Promise<{ wall: number; cpu: number }> {
  const cpu = process.cpuUsage()
  const start = performance.now()
  await fn()
  const used = process.cpuUsage(cpu)
  return { wall: (performance.now() - start) / 1000, cpu: (used.user + used.system) / 1e6 }
}

/** The repetitions, from ROLAND_BENCH_PHOTO_REPEATS (default 3): each times every photo once per configuration. */
function repeats(): number {
  const setting = process.env.ROLAND_BENCH_PHOTO_REPEATS ?? '3'
  const value = Number(setting)
  if (!Number.isInteger(value) || value < 1) {
    throw new Error(`ROLAND_BENCH_PHOTO_REPEATS is "${setting}": set it to a whole number of repetitions, e.g. 5.`)
  }
  return value
}

type Rgba = { data: Uint8ClampedArray; width: number; height: number }

async function rgba(image: Sharp): Promise<Rgba> {
  const { data, info } = await image.ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  }
}

/** SSIM of each derivative against the original resized straight to its size (1 is identical). */
async function scores(photo: Buffer, derivatives: Derivatives, files: FileStorage) {
  const result = new Map<string, number>()
  for (const variant of derivatives.variants) {
    const reference = await rgba(sharp(photo).resize(variant.width, variant.height))
    const objectPath = storagePathOf(files, variant.url)
    const bytes = objectPath === null ? null : await files.get(objectPath)
    if (!bytes) throw new Error(`${variant.url} was not written`)
    const derivative = await rgba(sharp(bytes))
    result.set(`${variant.format} ${variant.width}w`, ssim(reference, derivative, { downsample: false }).mssim)
  }
  return result
}

/**
 * Times the derivatives of each photo under both configurations against one 1440-px JPEG re-encode,
 * interleaved, and prints the median ratio of each, then bytes and SSIM per derivative.
 */
export async function compareDerivatives(photos: readonly Buffer[]): Promise<void> {
  const configurations: Array<[label: string, encoding: DerivativeEncoding | undefined]> = [
    ['before (issue 31)', BASELINE_ENCODING],
    ['now', undefined],
  ]
  const reencode = (photo: Buffer) => sharp(photo).resize({ width: 1440 }).jpeg().toBuffer()
  const reencodeLabel = '1440-px JPEG re-encode'
  const times = new Map<string, Array<{ wall: number; cpu: number }>>([
    [reencodeLabel, []],
    ...configurations.map(([label]) => [label, []] as [string, Array<{ wall: number; cpu: number }>]),
  ])
  const rounds = repeats()
  for (let round = 0; round < rounds; round++) {
    for (const photo of photos) {
      times.get(reencodeLabel)!.push(await timed(() => reencode(photo)))
      for (const [label, encoding] of configurations) {
        // A files bucket in memory, so that the timings are the pipeline's alone.
        const files = folderStorage(undefined)
        times
          .get(label)!
          .push(await timed(() => makeDerivatives(photo, { files, name: 'bench.jpg', basePath: 'bench', encoding })))
      }
    }
  }
  const median = (label: string, key: 'wall' | 'cpu') =>
    percentile(
      times.get(label)!.map((time) => time[key]),
      0.5,
    )
  const ms = (seconds: number) => (seconds * 1000).toFixed(0)
  process.stdout.write(
    `\nDerivatives of ${photos.length} photos (2400×1600), ${rounds} rounds, each timed against one sharp 1440-px ` +
      'JPEG re-encode of the same photo just before it (medians; the spread of the clock p10-p90; CPU time is that\n' +
      'of the whole process, all threads, so it holds on a loaded machine where the clock does not):\n',
  )
  table(
    [...times.entries()].map(([label, samples]) => {
      const wall = samples.map((sample) => sample.wall)
      return {
        pipeline: label,
        ms: ms(median(label, 'wall')),
        'p10-p90 ms': `${ms(percentile(wall, 0.1))}-${ms(percentile(wall, 0.9))}`,
        'ratio to re-encode': `${(median(label, 'wall') / median(reencodeLabel, 'wall')).toFixed(1)}×`,
        'CPU ms': ms(median(label, 'cpu')),
        'CPU ratio': `${(median(label, 'cpu') / median(reencodeLabel, 'cpu')).toFixed(1)}×`,
      }
    }),
  )

  // Bytes and SSIM, averaged over the photos.
  const rows = new Map<string, Record<string, number>>()
  for (const [label, encoding] of configurations) {
    for (const photo of photos) {
      const files = folderStorage(undefined)
      const derivatives = await makeDerivatives(photo, { files, name: 'bench.jpg', basePath: 'bench', encoding })
      const ssims = await scores(photo, derivatives, files)
      for (const variant of derivatives.variants) {
        const key = `${variant.format} ${variant.width}w`
        const row = rows.get(key) ?? {}
        row[`${label} KB`] = (row[`${label} KB`] ?? 0) + variant.bytes / 1024 / photos.length
        row[`${label} SSIM`] = (row[`${label} SSIM`] ?? 0) + ssims.get(key)! / photos.length
        rows.set(key, row)
      }
    }
  }
  process.stdout.write(
    '\nEach derivative, mean over the photos (SSIM over luma against the original resized to its size; 1 is identical):\n',
  )
  table(
    [...rows.entries()].map(([derivative, row]) => ({
      derivative,
      ...Object.fromEntries(
        configurations.flatMap(([label]) => [
          [`${label} KB`, row[`${label} KB`]!.toFixed(1)],
          [`${label} SSIM`, row[`${label} SSIM`]!.toFixed(4)],
        ]),
      ),
    })),
  )
}
