// A client for an OpenAI-compatible images API (POST {base}/images/generations). It runs in
// the edge function (Deno) and in the operator job's openai provider (Node), so it uses only
// web-standard APIs: fetch, atob and btoa. No Node or Deno specifics belong here.

/** OpenAI's API, used when IMAGES_API_URL is not set. */
export const defaultImagesApiUrl = 'https://api.openai.com/v1'

/** The model asked for when IMAGES_MODEL is not set. */
export const defaultImagesModel = 'gpt-image-1'

/** Where the API is and how to call it. */
export interface ImagesApiSettings {
  apiKey: string
  /** The API base, e.g. https://api.openai.com/v1 (the path /images/generations is added). */
  apiUrl: string
  model: string
  fetch: typeof fetch
  signal?: AbortSignal | undefined
}

/** One generated image, base64-encoded as the API sent it. */
export interface ImagesApiImage {
  base64: string
  /** The image's type, read from its first bytes: image/png, image/jpeg, image/webp or image/gif. */
  mimeType: string
  /** The prompt as the model rewrote it (DALL·E 3 does), when the API says. */
  revisedPrompt: string | null
}

/** SPEC §8's two messages: the call failed, or it answered without an image. */
export type ImagesApiHeadline = 'Failed to generate image' | 'No image data received'

/** A failed image request: the SPEC headline, the reason, and the HTTP status when there was one. */
export class ImagesApiError extends Error {
  readonly headline: ImagesApiHeadline
  readonly reason: string
  readonly status: number | undefined

  constructor(headline: ImagesApiHeadline, reason: string, status?: number) {
    super(`${headline}: ${reason}`)
    this.name = 'ImagesApiError'
    this.headline = headline
    this.reason = reason
    this.status = status
  }
}

// The largest image accepted when the API answers with a URL to download.
const maxImageBytes = 25 * 1024 * 1024

/** Asks the API for one image and returns it base64-encoded, or throws an ImagesApiError. */
export async function requestImage(
  settings: ImagesApiSettings,
  request: { prompt: string; size: string },
): Promise<ImagesApiImage> {
  const endpoint = `${settings.apiUrl.replace(/\/+$/, '')}/images/generations`
  const body: Record<string, unknown> = { model: settings.model, prompt: request.prompt, size: request.size, n: 1 }
  // GPT image models always answer base64 and reject response_format ("Unknown parameter");
  // DALL·E and most compatible servers answer a URL unless asked for b64_json.
  if (!/^gpt-image/i.test(settings.model)) body.response_format = 'b64_json'

  let response: Response
  try {
    response = await settings.fetch(endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${settings.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: settings.signal ?? null,
    })
  } catch (error) {
    throw new ImagesApiError(
      'Failed to generate image',
      `could not reach the images API at ${endpoint}: ${describe(error)}`,
    )
  }
  const text = await response.text()
  if (!response.ok) {
    const message = errorMessage(text)
    throw new ImagesApiError(
      'Failed to generate image',
      `the images API at ${endpoint} answered HTTP ${response.status}${message ? `: ${message}` : ''}`,
      response.status,
    )
  }
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    throw new ImagesApiError('Failed to generate image', `the images API at ${endpoint} did not answer JSON`)
  }
  const item = firstImage(answer)
  const revisedPrompt = typeof item?.revised_prompt === 'string' ? item.revised_prompt : null
  if (typeof item?.b64_json === 'string' && item.b64_json.trim()) {
    const base64 = item.b64_json.replace(/\s+/g, '')
    return { base64, mimeType: imageType(base64, endpoint), revisedPrompt }
  }
  if (typeof item?.url === 'string' && item.url) {
    const base64 = await download(item.url, settings)
    return { base64, mimeType: imageType(base64, item.url), revisedPrompt }
  }
  throw new ImagesApiError(
    'No image data received',
    `the images API at ${endpoint} answered without data[0].b64_json or data[0].url`,
  )
}

/** Reads an image's type from its first bytes (base64), or null when it is not an image we know. */
export function sniffImageType(base64: string): string | null {
  let head: string
  try {
    head = atob(base64.slice(0, 16))
  } catch {
    return null
  }
  const bytes = Array.from(head, (c) => c.charCodeAt(0))
  const starts = (...prefix: number[]) => prefix.every((b, i) => bytes[i] === b)
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png'
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg'
  if (starts(0x47, 0x49, 0x46, 0x38)) return 'image/gif'
  if (starts(0x52, 0x49, 0x46, 0x46) && head.slice(8, 12) === 'WEBP') return 'image/webp'
  return null
}

/** Encodes bytes as base64 with web-standard APIs only. */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = ''
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  }
  return btoa(binary)
}

function imageType(base64: string, source: string): string {
  const type = /^[A-Za-z0-9+/]+={0,2}$/.test(base64) ? sniffImageType(base64) : null
  if (!type)
    throw new ImagesApiError('No image data received', `the image from ${source} is not a PNG, JPEG, WebP or GIF`)
  return type
}

function firstImage(answer: unknown): { b64_json?: unknown; url?: unknown; revised_prompt?: unknown } | null {
  if (!answer || typeof answer !== 'object') return null
  const data = (answer as { data?: unknown }).data
  if (!Array.isArray(data) || !data[0] || typeof data[0] !== 'object') return null
  return data[0] as { b64_json?: unknown; url?: unknown; revised_prompt?: unknown }
}

async function download(url: string, settings: ImagesApiSettings): Promise<string> {
  let response: Response
  try {
    response = await settings.fetch(url, { signal: settings.signal ?? null })
  } catch (error) {
    throw new ImagesApiError('No image data received', `could not download the image at ${url}: ${describe(error)}`)
  }
  if (!response.ok) {
    throw new ImagesApiError(
      'No image data received',
      `downloading the image at ${url} answered HTTP ${response.status}`,
    )
  }
  const bytes = new Uint8Array(await response.arrayBuffer())
  if (bytes.length === 0) throw new ImagesApiError('No image data received', `the image at ${url} is empty`)
  if (bytes.length > maxImageBytes) {
    throw new ImagesApiError('No image data received', `the image at ${url} is larger than ${maxImageBytes} bytes`)
  }
  return bytesToBase64(bytes)
}

// OpenAI answers {"error":{"message":…}}; other servers {"error":"…"} or {"message":"…"}.
function errorMessage(text: string): string {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown }
    if (
      body.error &&
      typeof body.error === 'object' &&
      typeof (body.error as { message?: unknown }).message === 'string'
    ) {
      return (body.error as { message: string }).message
    }
    if (typeof body.error === 'string') return body.error
    if (typeof body.message === 'string') return body.message
  } catch {
    // Not JSON: show the start of the text.
  }
  return text.trim().slice(0, 200)
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause
    return cause instanceof Error ? `${error.message} (${cause.message})` : error.message
  }
  return String(error)
}
