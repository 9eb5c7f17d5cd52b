import {
  createClient,
  FunctionsFetchError,
  FunctionsHttpError,
  FunctionsRelayError,
  type SupabaseClient,
} from '@supabase/supabase-js'
import { z } from 'zod'
import {
  defaultImagesApiUrl,
  defaultImagesModel,
  ImagesApiError,
  requestImage,
} from '../../../supabase/functions/generate-business-image/images-api.ts'
import { supabaseSettings } from '../store/index.ts'
import type { CategoryStyle } from './category-style.ts'
import type { ImageProviderName } from './generated.ts'
import { ImageError } from './image-error.ts'
import { renderStoreImage } from './render-store.ts'

export type { ImageProviderName } from './generated.ts'

/** The providers, in the order `--provider` lists them. */
export const imageProviderNames = ['local', 'openai', 'supabase'] as const satisfies readonly ImageProviderName[]

/** The one size SPEC §9 asks for. */
export const storeImageSizeText = '1024x1024'

/** The Supabase Edge Function the supabase provider calls (SPEC §7). */
export const generateFunctionName = 'generate-business-image'

/** What a provider is asked to make. */
export interface StoreImageRequest {
  businessName: string
  slug: string
  style: CategoryStyle
  /** The town the store is in, as its sign says it: "{town}, {state}". */
  place: string
  prompt: string
}

/** What a provider made: the image file and how. */
export interface ProvidedImage {
  bytes: Uint8Array
  /** The type the provider says the bytes have (the job checks they really are a PNG). */
  mimeType: string
  prompt: string
  model: string
}

/** Makes store images: drawn locally, through an images API, or through the Supabase function. */
export interface ImageProvider {
  readonly name: ImageProviderName
  /** Says where images come from, for messages: "the local renderer", "the images API at …". */
  readonly label: string
  generate(request: StoreImageRequest, signal?: AbortSignal): Promise<ProvidedImage>
}

/** The name the local renderer records as its model; bump it when the drawing changes. */
export const localRendererModel = 'roland-storefront-2'

/** Makes the provider that draws a storefront sign locally: no key, no network, same bytes every time. */
export function localImageProvider(): ImageProvider {
  return {
    name: 'local',
    label: 'the local renderer',
    async generate(request) {
      const { businessName, slug, style, place } = request
      const bytes = renderStoreImage({ name: businessName, slug, style, place })
      // The renderer reads no prompt; record what it drew instead of a prompt it ignored.
      const prompt =
        `Illustrated storefront of "${businessName}" in ${place}: sign with the name, ` +
        `${style.iconName} icon and ${style.color} awning for ${style.category || 'a local business'}`
      return { bytes, mimeType: 'image/png', prompt, model: localRendererModel }
    },
  }
}

/** Settings of an OpenAI-compatible images API. */
export interface ImagesApiConfig {
  apiKey: string
  apiUrl: string
  model: string
}

// Generating one image takes a while (tens of seconds for GPT image models); past this, give up.
const defaultTimeoutMs = 180_000

/** Makes the provider that calls an OpenAI-compatible images API directly. */
export function openAiImageProvider(
  config: ImagesApiConfig,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): ImageProvider {
  const label = `the images API at ${config.apiUrl} (${config.model})`
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init))
  return {
    name: 'openai',
    label,
    async generate(request, signal) {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? defaultTimeoutMs)
      try {
        const image = await requestImage(
          { ...config, fetch: fetchImpl, signal: signal ? AbortSignal.any([signal, timeout]) : timeout },
          { prompt: request.prompt, size: storeImageSizeText },
        )
        return {
          bytes: new Uint8Array(Buffer.from(image.base64, 'base64')),
          mimeType: image.mimeType,
          prompt: request.prompt,
          model: config.model,
        }
      } catch (error) {
        if (!(error instanceof ImagesApiError)) throw error
        throw fromImagesApiError(error)
      }
    },
  }
}

function fromImagesApiError(error: ImagesApiError): ImageError {
  const code = error.headline === 'No image data received' ? 'no-image-data' : 'generation-failed'
  const status = error.status
  const unreachable = status === undefined && error.reason.startsWith('could not reach')
  const hint =
    status === 401 || status === 403
      ? ' Check IMAGES_API_KEY in .env (see .env.example).'
      : status === 404
        ? ' Check IMAGES_API_URL (the API base, such as https://api.openai.com/v1) and IMAGES_MODEL in .env.'
        : unreachable
          ? ' Check IMAGES_API_URL in .env and the network, or use --provider local.'
          : ''
  return new ImageError(code, `${error.message}.${hint}`, {
    fatal: status === 401 || status === 403 || status === 404 || unreachable,
    cause: error,
  })
}

/** Settings of the Supabase project whose generate-business-image function to call. */
export interface SupabaseFunctionConfig {
  url: string
  /** The key sent as apikey and bearer token: the secret key when there is one, else the publishable key. */
  key: string
}

const functionAnswer = z.object({
  image: z.string().optional(),
  prompt: z.string().optional(),
  model: z.string().optional(),
})
// The function answers {error, details}; Supabase's gateway answers {message} (or {msg}) itself.
const functionFailure = z.object({
  error: z.string().optional(),
  details: z.string().optional(),
  message: z.string().optional(),
  msg: z.string().optional(),
})

/** Makes the provider that calls the project's generate-business-image Edge Function (SPEC §7). */
export function supabaseImageProvider(
  config: SupabaseFunctionConfig,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): ImageProvider {
  const label = `the ${generateFunctionName} function of Supabase at ${config.url}`
  let client: SupabaseClient | null = null
  return {
    name: 'supabase',
    label,
    async generate(request, signal) {
      client ??= createClient(config.url, config.key, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
        ...(options.fetch ? { global: { fetch: options.fetch } } : {}),
      })
      const invoked = await client.functions.invoke<unknown>(generateFunctionName, {
        body: { businessName: request.businessName, prompt: request.prompt, size: storeImageSizeText },
        timeout: options.timeoutMs ?? defaultTimeoutMs,
        ...(signal ? { signal } : {}),
      })
      if (invoked.error) throw await fromFunctionError(invoked.error, label)
      const answer = functionAnswer.safeParse(invoked.data)
      const image = answer.success ? answer.data.image : undefined
      if (!image) {
        throw new ImageError('no-image-data', `No image data received: ${label} answered without an image.`)
      }
      const decoded = decodeDataUrl(image)
      if (!decoded) {
        throw new ImageError(
          'no-image-data',
          `No image data received: the image ${label} answered is not a base64 data URL.`,
        )
      }
      return {
        bytes: decoded.bytes,
        mimeType: decoded.mimeType,
        prompt: answer.success && answer.data.prompt ? answer.data.prompt : request.prompt,
        model: answer.success && answer.data.model ? answer.data.model : generateFunctionName,
      }
    },
  }
}

// supabase-js reports a function's failure three ways (SPEC §8): a non-2xx answer, a relay
// (gateway) error, or a fetch error when the project cannot be reached at all.
async function fromFunctionError(error: unknown, label: string): Promise<ImageError> {
  if (error instanceof FunctionsHttpError) {
    const response = error.context as Response
    const parsed = functionFailure.safeParse(await response.json().catch(() => null))
    const body = parsed.success ? parsed.data : {}
    const status = response.status
    if (body.error === 'No image data received') {
      return new ImageError('no-image-data', `No image data received: ${body.details ?? `from ${label}`}.`)
    }
    if (status === 404 && body.error !== 'Failed to generate image') {
      return new ImageError(
        'not-configured',
        `Failed to generate image: ${label} was not found. Deploy it with \`supabase functions deploy ${generateFunctionName}\`, or use --provider local.`,
        { fatal: true },
      )
    }
    const reason = body.details ?? body.error ?? body.message ?? body.msg ?? 'no reason given'
    const missingSecret = /IMAGES_API_KEY secret/.test(reason)
    const hint =
      status === 401 || status === 403 ? ' Check SUPABASE_SECRET_KEY (or SUPABASE_PUBLISHABLE_KEY) in .env.' : ''
    return new ImageError(
      'generation-failed',
      `Failed to generate image: ${label} answered HTTP ${status}: ${reason}.${hint}`,
      {
        fatal: status === 401 || status === 403 || missingSecret,
      },
    )
  }
  if (error instanceof FunctionsRelayError) {
    return new ImageError(
      'generation-failed',
      `Failed to generate image: the Supabase relay could not run ${label}: ${error.message}.`,
    )
  }
  if (error instanceof FunctionsFetchError) {
    const cause = (error.context as { message?: string } | undefined)?.message ?? error.message
    return new ImageError(
      'generation-failed',
      `Failed to generate image: could not reach ${label}: ${cause}. Check SUPABASE_URL and the network, or use --provider local.`,
      { fatal: true },
    )
  }
  return new ImageError(
    'generation-failed',
    `Failed to generate image: ${error instanceof Error ? error.message : String(error)}`,
  )
}

/** Decodes a base64 data URL ("data:image/png;base64,…"), or null when it is not one. */
export function decodeDataUrl(url: string): { mimeType: string; bytes: Uint8Array } | null {
  const match = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)(?:;[a-z0-9.+-]+=[^;,]*)*;base64,([A-Za-z0-9+/=\s]+)$/i.exec(url)
  if (!match) return null
  const bytes = new Uint8Array(Buffer.from(match[2]!.replace(/\s+/g, ''), 'base64'))
  return bytes.length ? { mimeType: match[1]!.toLowerCase(), bytes } : null
}

/** Reads the images API settings from the environment, or null when IMAGES_API_KEY is not set. */
export function imagesApiConfig(env: NodeJS.ProcessEnv = process.env): ImagesApiConfig | null {
  const apiKey = env.IMAGES_API_KEY?.trim()
  const apiUrl = env.IMAGES_API_URL?.trim()
  if (!apiKey) {
    if (apiUrl) {
      throw new ImageError(
        'not-configured',
        'IMAGES_API_URL is set but IMAGES_API_KEY is missing: add the key to .env (see .env.example), ' +
          'or unset IMAGES_API_URL to draw store images locally.',
      )
    }
    return null
  }
  if (apiUrl && !/^https?:\/\/[^\s/]+/i.test(apiUrl)) {
    throw new ImageError(
      'not-configured',
      `IMAGES_API_URL is not a URL: "${apiUrl}". Use the API base, such as https://api.openai.com/v1.`,
    )
  }
  return {
    apiKey,
    apiUrl: (apiUrl || defaultImagesApiUrl).replace(/\/+$/, ''),
    model: env.IMAGES_MODEL?.trim() || defaultImagesModel,
  }
}

/**
 * Picks the image provider: the one asked for, else the Supabase function when SUPABASE_URL is
 * set, else the images API when IMAGES_API_KEY is set, else the local renderer.
 */
export function chooseImageProvider(
  options: { env?: NodeJS.ProcessEnv; requested?: ImageProviderName | undefined; fetch?: typeof fetch } = {},
): ImageProvider {
  const env = options.env ?? process.env
  const extra = options.fetch ? { fetch: options.fetch } : {}
  const supabase = () => {
    const settings = supabaseSettings(env)
    return settings ? { url: settings.url, key: settings.secretKey ?? settings.publicKey } : null
  }
  switch (options.requested) {
    case 'local':
      return localImageProvider()
    case 'openai': {
      const config = imagesApiConfig(env)
      if (!config) {
        throw new ImageError(
          'not-configured',
          'The openai provider needs IMAGES_API_KEY (and IMAGES_API_URL for an API other than OpenAI) in .env ' +
            '(see .env.example), or use --provider local.',
        )
      }
      return openAiImageProvider(config, extra)
    }
    case 'supabase': {
      const config = supabase()
      if (!config) {
        throw new ImageError(
          'not-configured',
          `The supabase provider calls the ${generateFunctionName} function of your Supabase project: set SUPABASE_URL ` +
            'and SUPABASE_PUBLISHABLE_KEY in .env (see .env.example), or use --provider local.',
        )
      }
      return supabaseImageProvider(config, extra)
    }
    case undefined: {
      const config = supabase()
      if (config) return supabaseImageProvider(config, extra)
      const api = imagesApiConfig(env)
      return api ? openAiImageProvider(api, extra) : localImageProvider()
    }
    default:
      throw new ImageError(
        'invalid-input',
        `Unknown image provider "${String(options.requested)}": use one of ${imageProviderNames.join(', ')}.`,
      )
  }
}
