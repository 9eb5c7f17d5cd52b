import { defaultImagesApiUrl, defaultImagesModel, ImagesApiError, requestImage } from './images-api.ts'

// The generate-business-image function (SPEC §7) as a pure request → response function, so
// it can be tested without Deno. index.ts is the thin Deno.serve shell around it.
//
// Request:  POST {"businessName": "...", "prompt": "...", "size": "1024x1024"}
// Answer:   200 {"image": "data:image/png;base64,...", "prompt": "...", "model": "..."}
// Failure:  4xx/5xx {"error": "Failed to generate image" | "No image data received", "details": "..."}

/** The only size SPEC §9 asks for. */
export const imageSize = '1024x1024'

/** The function's configuration, from its secrets. */
export interface GenerateSettings {
  apiKey: string | undefined
  apiUrl: string
  model: string
}

/** The settings plus the fetch to call the images API with (a stand-in's, in tests). */
export interface GenerateDependencies extends GenerateSettings {
  fetch: typeof fetch
}

// Browsers (the SPEC's earlier client-rendered site) call the function across origins.
const corsHeaders = {
  'access-control-allow-origin': '*',
  'access-control-allow-headers': 'authorization, x-client-info, apikey, content-type',
  'access-control-allow-methods': 'POST, OPTIONS',
}

/** Reads the settings from the function's secrets: IMAGES_API_KEY (or OPENAI_API_KEY), IMAGES_API_URL, IMAGES_MODEL. */
export function settingsFromEnv(get: (name: string) => string | undefined): GenerateSettings {
  const value = (name: string) => get(name)?.trim() || undefined
  return {
    apiKey: value('IMAGES_API_KEY') ?? value('OPENAI_API_KEY'),
    apiUrl: value('IMAGES_API_URL') ?? defaultImagesApiUrl,
    model: value('IMAGES_MODEL') ?? defaultImagesModel,
  }
}

/** Builds the prompt used when a caller sends only the business name. */
export function defaultPrompt(businessName: string): string {
  return (
    `A welcoming storefront of "${businessName}", a local business in Roland, Arkansas, a small town ` +
    'near Lake Maumelle and Pinnacle Mountain. Daylight, inviting entrance, a sign with the business name. ' +
    'Photorealistic, no people.'
  )
}

/** Answers one request to the function: generates the image or says why it could not. */
export async function handleGenerate(request: Request, deps: GenerateDependencies): Promise<Response> {
  if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: corsHeaders })
  if (request.method !== 'POST') {
    return failure(
      405,
      'Failed to generate image',
      `use POST with a JSON body {"businessName", "prompt", "size"}, not ${request.method}`,
    )
  }
  let body: unknown
  try {
    body = await request.json()
  } catch {
    return failure(
      400,
      'Failed to generate image',
      'the request body is not JSON: send {"businessName", "prompt", "size"}',
    )
  }
  const input = parseInput(body)
  if (typeof input === 'string') return failure(400, 'Failed to generate image', input)
  if (!deps.apiKey) {
    return failure(
      500,
      'Failed to generate image',
      'the function has no IMAGES_API_KEY secret: run `supabase secrets set IMAGES_API_KEY=<key>` ' +
        '(and IMAGES_API_URL for an API other than OpenAI)',
    )
  }
  try {
    const image = await requestImage(
      { apiKey: deps.apiKey, apiUrl: deps.apiUrl, model: deps.model, fetch: deps.fetch, signal: request.signal },
      { prompt: input.prompt, size: input.size },
    )
    return json(200, {
      image: `data:${image.mimeType};base64,${image.base64}`,
      prompt: input.prompt,
      model: deps.model,
    })
  } catch (error) {
    if (error instanceof ImagesApiError) return failure(502, error.headline, error.reason)
    return failure(500, 'Failed to generate image', error instanceof Error ? error.message : String(error))
  }
}

function parseInput(body: unknown): { businessName: string; prompt: string; size: string } | string {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return 'send a JSON object {"businessName", "prompt", "size"}'
  const { businessName, prompt, size } = body as Record<string, unknown>
  if (typeof businessName !== 'string' || !businessName.trim())
    return 'businessName is required: the name of the business'
  if (businessName.length > 200) return 'businessName is longer than 200 characters'
  if (prompt !== undefined && prompt !== null && typeof prompt !== 'string') return 'prompt must be text'
  if (typeof prompt === 'string' && prompt.length > 4000) return 'prompt is longer than 4000 characters'
  if (size !== undefined && size !== imageSize) return `size must be "${imageSize}"`
  const text = typeof prompt === 'string' && prompt.trim() ? prompt.trim() : defaultPrompt(businessName.trim())
  return { businessName: businessName.trim(), prompt: text, size: imageSize }
}

function json(status: number, payload: unknown): Response {
  return new Response(JSON.stringify(payload), {
    status,
    headers: { ...corsHeaders, 'content-type': 'application/json; charset=utf-8' },
  })
}

function failure(status: number, error: string, details: string): Response {
  return json(status, { error, details })
}
