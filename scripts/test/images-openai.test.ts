import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import { categoryStyle } from '../src/images/category-style.ts'
import { ImageError } from '../src/images/image-error.ts'
import { openAiImageProvider, type ImageProvider } from '../src/images/providers.ts'
import { startImagesApiStandIn, type ImagesApiStandIn } from './images-api-stand-in.ts'

// The openai provider against a real HTTP server on 127.0.0.1 answering as OpenAI's
// POST /v1/images/generations does: an image, an error status, or no image at all.

let api: ImagesApiStandIn

beforeAll(async () => {
  api = await startImagesApiStandIn()
})

afterAll(async () => {
  await api.close()
})

beforeEach(() => {
  api.answer = 'image'
  api.requests.length = 0
})

const request = {
  businessName: 'Big Rock Coffee',
  slug: 'big-rock-coffee',
  style: categoryStyle('Dining & Refreshments', []),
  place: 'Roland, Arkansas',
  prompt: 'A storefront for "Big Rock Coffee" in Roland, Arkansas.',
}

function provider(overrides: { apiKey?: string; model?: string; apiUrl?: string } = {}): ImageProvider {
  return openAiImageProvider({ apiKey: api.apiKey, apiUrl: api.apiUrl, model: 'gpt-image-1', ...overrides })
}

async function failure(promise: Promise<unknown>): Promise<ImageError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(ImageError)
  return error as ImageError
}

describe('the openai provider', () => {
  test('returns the PNG the API sends as b64_json', async () => {
    const image = await provider().generate(request)
    expect(Buffer.from(image.bytes).equals(Buffer.from(api.png))).toBe(true)
    expect(image).toMatchObject({ mimeType: 'image/png', model: 'gpt-image-1', prompt: request.prompt })
  })

  test('posts the prompt, size and model with the key as a bearer token', async () => {
    await provider().generate(request)
    const [call] = api.requests
    expect(call?.method).toBe('POST')
    expect(call?.path).toBe('/v1/images/generations')
    expect(call?.headers.authorization).toBe(`Bearer ${api.apiKey}`)
    expect(call?.body).toEqual({ model: 'gpt-image-1', prompt: request.prompt, size: '1024x1024', n: 1 })
  })

  test('asks DALL·E-style models for b64_json, which GPT image models would reject', async () => {
    await provider({ model: 'dall-e-3' }).generate(request)
    expect(api.requests[0]?.body).toMatchObject({ model: 'dall-e-3', response_format: 'b64_json' })
  })

  test('downloads the image when the API answers with a URL', async () => {
    api.answer = 'url'
    const image = await provider().generate(request)
    expect(Buffer.from(image.bytes).equals(Buffer.from(api.png))).toBe(true)
    expect(api.requests.map((r) => r.path)).toEqual(['/v1/images/generations', '/generated/image.png'])
  })

  test("fails with 'Failed to generate image' and the API's message on a 401, and stops the run", async () => {
    const error = await failure(provider({ apiKey: 'sk-wrong' }).generate(request))
    expect(error.message).toMatch(
      /^Failed to generate image: the images API at .* answered HTTP 401: Incorrect API key provided/,
    )
    expect(error.message).toContain('Check IMAGES_API_KEY in .env')
    expect(error.code).toBe('generation-failed')
    expect(error.fatal).toBe(true)
  })

  test("fails with 'Failed to generate image' on a 500, without stopping a run", async () => {
    api.answer = 'server-error'
    const error = await failure(provider().generate(request))
    expect(error.message).toMatch(/^Failed to generate image: .* answered HTTP 500: The server had an error/)
    expect(error.fatal).toBe(false)
  })

  test("fails with 'No image data received' when the answer has no image", async () => {
    api.answer = 'no-data'
    const error = await failure(provider().generate(request))
    expect(error.message).toMatch(/^No image data received: .* answered without data\[0\]\.b64_json or data\[0\]\.url/)
    expect(error.code).toBe('no-image-data')
  })

  test('fails clearly when the answer is not JSON', async () => {
    api.answer = 'not-json'
    const error = await failure(provider().generate(request))
    expect(error.message).toMatch(/^Failed to generate image: .* did not answer JSON/)
  })

  test('fails with a hint on the URL when the API path does not exist', async () => {
    const error = await failure(provider({ apiUrl: api.apiUrl.replace(/\/v1$/, '/v2') }).generate(request))
    expect(error.message).toMatch(/answered HTTP 404.*Check IMAGES_API_URL/)
    expect(error.fatal).toBe(true)
  })

  test('fails as unreachable when nothing listens at the API URL', async () => {
    const closed = await startImagesApiStandIn()
    await closed.close()
    const error = await failure(provider({ apiUrl: closed.apiUrl }).generate(request))
    expect(error.message).toMatch(
      /^Failed to generate image: could not reach the images API at http:\/\/127\.0\.0\.1:\d+\/v1\/images\/generations/,
    )
    expect(error.fatal).toBe(true)
  })
})
