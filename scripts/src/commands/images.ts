import { Option, type Command } from 'commander'
import path from 'node:path'
import { ImageError } from '../images/image-error.ts'
import {
  generateStoreImages,
  type GeneratedStoreImage,
  type GenerateStoreImagesResult,
  type SkippedBusiness,
} from '../images/job.ts'
import { optimizeImages, type OptimizeImagesResult } from '../images/optimize.ts'
import { chooseImageProvider, imageProviderNames, type ImageProviderName } from '../images/providers.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { dataDir } from '../paths.ts'
import { openStore } from '../store/index.ts'
import type { Store } from '../store/types.ts'
import { terminalProgress } from './progress.ts'

interface GenerateFlags {
  business?: string
  missing?: boolean
  provider?: ImageProviderName
  json?: boolean
}

/** Adds `roland images generate --business SLUG | --missing [--provider …] [--json]` and `roland images optimize`. */
export function register(program: Command): void {
  const images = program
    .command('images')
    .description('store images for businesses without photos (SPEC §2, Generate Store Image), and photo derivatives')

  images
    .command('optimize')
    .description(
      'make the responsive derivatives (AVIF, WebP, JPEG at phone-sized widths, a placeholder) of stored photos ' +
        'that lack them; a crawl or upload makes them at once, so this is for photos stored before',
    )
    .option('--missing', 'only photos without derivatives (the default)')
    .option('--all', 'make them again for every photo (after a change of the pipeline)')
    .option('--json', 'print the result as one JSON object')
    .action(async (flags: { missing?: boolean; all?: boolean; json?: boolean }) => {
      if (flags.missing && flags.all) {
        throw new ImageError('invalid-input', 'Choose one: --missing (photos without derivatives) or --all.')
      }
      const store = await openStore({ onCreate: loadSampleData })
      const progress = terminalProgress()
      try {
        const result = await optimizeImages({
          store,
          missing: !flags.all,
          onEvent: flags.json ? undefined : progress,
        })
        progress.done()
        process.stdout.write(flags.json ? `${JSON.stringify(result)}\n` : describeOptimize(result))
        if (result.failed.length) process.exitCode = 1
      } finally {
        progress.done()
        await store.close()
      }
    })

  images
    .command('generate')
    .description(
      'generate a store image and record it as the business hero image: through the Supabase function when ' +
        'SUPABASE_URL is set, an images API when IMAGES_API_KEY is set, else drawn locally',
    )
    .option('--business <slug>', 'the business to generate an image for, by slug')
    .option('--missing', 'every active business with no image at all')
    .addOption(new Option('--provider <name>', 'where the image comes from').choices(imageProviderNames))
    .option('--json', 'print the result as one JSON object')
    .action(async (flags: GenerateFlags) => {
      if (Boolean(flags.business) === Boolean(flags.missing)) {
        throw new ImageError(
          'invalid-input',
          'Say which businesses: --business <slug> for one, or --missing for every active business with no image.',
        )
      }
      // Choose the provider before opening the store, so a missing key fails fast.
      const provider = chooseImageProvider({ requested: flags.provider })
      const store = await openStore({ onCreate: loadSampleData })
      const progress = terminalProgress()
      try {
        const result = await generateStoreImages({
          store,
          target: flags.business ? { slug: flags.business } : { missing: true },
          provider,
          onEvent: flags.json ? undefined : progress,
        })
        progress.done()
        const file = (image: GeneratedStoreImage) => storedFile(store, image.path)
        if (flags.json) {
          const json = flags.business
            ? toJson(result.generated[0]!, file)
            : {
                provider: result.provider,
                generated: result.generated.map((image) => toJson(image, file)),
                skipped: result.skipped,
                failed: result.failed,
                summary: result.summary,
              }
          process.stdout.write(`${JSON.stringify(json)}\n`)
        } else {
          process.stdout.write(describe(result, provider.label, file))
        }
        if (result.failed.length) process.exitCode = 1
      } finally {
        progress.done()
        await store.close()
      }
    })
}

// The embedded store keeps the files bucket as a folder: .data/storage/files/<path> (see
// store/embedded.ts). For Supabase there is no local file, only the public URL.
function storedFile(store: Store, objectPath: string): string | null {
  return store.kind === 'embedded' ? path.join(dataDir(), 'storage', 'files', ...objectPath.split('/')) : null
}

function toJson(image: GeneratedStoreImage, file: (image: GeneratedStoreImage) => string | null) {
  return {
    businessName: image.businessName,
    slug: image.slug,
    imageUrl: image.imageUrl,
    file: file(image),
    provider: image.provider,
    prompt: image.prompt,
  }
}

function describe(
  result: GenerateStoreImagesResult,
  label: string,
  file: (image: GeneratedStoreImage) => string | null,
): string {
  const lines: string[] = []
  const { generated, skipped, failed } = result
  if (generated.length === 0 && failed.length === 0) {
    lines.push(
      `Every active business already has an image: nothing to generate (${skipReasons(skipped) || 'no businesses'}).`,
    )
  } else {
    lines.push(
      `Generated ${generated.length} store image${generated.length === 1 ? '' : 's'} with ${label}` +
        (skipped.length ? `; skipped ${skipped.length} (${skipReasons(skipped)})` : '') +
        (failed.length ? `; ${failed.length} failed` : '') +
        '.',
    )
  }
  for (const image of generated) {
    const local = file(image)
    lines.push(`  ${image.businessName}: ${image.imageUrl}${local ? `  (${local})` : ''}`)
  }
  for (const failure of failed) lines.push(`  failed: ${failure.businessName}: ${failure.error}`)
  return `${lines.join('\n')}\n`
}

function skipReasons(skipped: SkippedBusiness[]): string {
  const hasImage = skipped.filter((s) => s.reason === 'has-image').length
  const inactive = skipped.length - hasImage
  return [hasImage ? `${hasImage} already with an image` : '', inactive ? `${inactive} inactive` : '']
    .filter(Boolean)
    .join(', ')
}

function describeOptimize(result: OptimizeImagesResult): string {
  const { summary } = result
  const lines: string[] = []
  const hasDerivatives = result.skipped.filter((skip) => skip.reason === 'has-derivatives').length
  const others = summary.skipped - hasDerivatives
  if (summary.optimized === 0 && summary.failed === 0) {
    lines.push(
      `Every photo already has its derivatives: nothing changed (${hasDerivatives + summary.unchanged} with derivatives` +
        `${others ? `, ${others} not photos in our storage` : ''}).`,
    )
  } else {
    lines.push(
      `Made the derivatives of ${summary.optimized} photo${summary.optimized === 1 ? '' : 's'}` +
        (hasDerivatives + summary.unchanged ? `; ${hasDerivatives + summary.unchanged} already had them` : '') +
        (others ? `; skipped ${others} (SVG logos, pictures outside our storage)` : '') +
        (summary.failed ? `; ${summary.failed} failed` : '') +
        '.',
    )
  }
  for (const image of result.optimized) {
    lines.push(
      `  ${image.businessName}: ${image.imageUrl} (${image.width}×${image.height}, ${image.variants} derivatives)`,
    )
  }
  for (const failure of result.failed) lines.push(`  failed: ${failure.businessName}: ${failure.error}`)
  if (summary.optimized > 0) lines.push('Rebuild the site to use them: pnpm roland rebuild.')
  return `${lines.join('\n')}\n`
}
