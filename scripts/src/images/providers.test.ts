import { describe, expect, test } from 'vitest'
import { chooseImageProvider, decodeDataUrl, imagesApiConfig } from './providers.ts'

const supabase = {
  SUPABASE_URL: 'https://abcd.supabase.co',
  SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x',
  SUPABASE_SECRET_KEY: 'sb_secret_x',
}
const imagesApi = { IMAGES_API_KEY: 'sk-x', IMAGES_API_URL: 'https://images.example/v1/' }

describe('chooseImageProvider', () => {
  test('draws locally when nothing is configured', () => {
    expect(chooseImageProvider({ env: {} }).name).toBe('local')
  })

  test('calls the images API when its key is set', () => {
    const provider = chooseImageProvider({ env: imagesApi })
    expect(provider.name).toBe('openai')
    expect(provider.label).toBe('the images API at https://images.example/v1 (gpt-image-1)')
  })

  test('calls the Supabase function when Supabase is configured, even with an images API key', () => {
    const provider = chooseImageProvider({ env: { ...supabase, ...imagesApi } })
    expect(provider.name).toBe('supabase')
    expect(provider.label).toContain('generate-business-image function of Supabase at https://abcd.supabase.co')
  })

  test('uses the provider asked for', () => {
    expect(chooseImageProvider({ env: { ...supabase, ...imagesApi }, requested: 'local' }).name).toBe('local')
    expect(chooseImageProvider({ env: { ...supabase, ...imagesApi }, requested: 'openai' }).name).toBe('openai')
  })

  test('says what to set when the provider asked for is not configured', () => {
    expect(() => chooseImageProvider({ env: {}, requested: 'openai' })).toThrow(
      /needs IMAGES_API_KEY .* or use --provider local/,
    )
    expect(() => chooseImageProvider({ env: {}, requested: 'supabase' })).toThrow(
      /set SUPABASE_URL and SUPABASE_PUBLISHABLE_KEY/,
    )
  })
})

describe('imagesApiConfig', () => {
  test('defaults the API base to OpenAI and the model to gpt-image-1', () => {
    expect(imagesApiConfig({ IMAGES_API_KEY: ' sk-x ' })).toEqual({
      apiKey: 'sk-x',
      apiUrl: 'https://api.openai.com/v1',
      model: 'gpt-image-1',
    })
  })

  test('takes the model from IMAGES_MODEL', () => {
    expect(imagesApiConfig({ ...imagesApi, IMAGES_MODEL: 'dall-e-3' })?.model).toBe('dall-e-3')
  })

  test('refuses an API URL without a key, and a URL that is not one', () => {
    expect(() => imagesApiConfig({ IMAGES_API_URL: 'https://images.example/v1' })).toThrow(
      /IMAGES_API_URL is set but IMAGES_API_KEY is missing/,
    )
    expect(() => imagesApiConfig({ IMAGES_API_KEY: 'sk-x', IMAGES_API_URL: 'images.example' })).toThrow(/is not a URL/)
  })
})

describe('decodeDataUrl', () => {
  test('decodes a base64 data URL', () => {
    const decoded = decodeDataUrl('data:image/png;base64,iVBORw0KGgo=')
    expect(decoded?.mimeType).toBe('image/png')
    expect([...decoded!.bytes]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  })

  test('refuses what is not a base64 data URL', () => {
    expect(decodeDataUrl('https://example.com/a.png')).toBeNull()
    expect(decodeDataUrl('data:image/png,plain')).toBeNull()
    expect(decodeDataUrl('data:image/png;base64,')).toBeNull()
  })
})
