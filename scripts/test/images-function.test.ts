import { readdirSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest'
import {
  handleGenerate,
  settingsFromEnv,
  type GenerateDependencies,
} from '../../supabase/functions/generate-business-image/handler.ts'
import { categoryStyle } from '../src/images/category-style.ts'
import { ImageError } from '../src/images/image-error.ts'
import { chooseImageProvider, supabaseImageProvider } from '../src/images/providers.ts'
import {
  startFunctionsStandIn,
  startImagesApiStandIn,
  type FunctionsStandIn,
  type ImagesApiStandIn,
} from './images-api-stand-in.ts'

// The generate-business-image Edge Function: its handler run under Node against an images API
// stand-in, the supabase provider calling it through a Supabase Functions stand-in, and the
// function's files type-checked as Deno would see them (web APIs, no Node).

const functionDir = path.join(import.meta.dirname, '..', '..', 'supabase', 'functions', 'generate-business-image')

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

const deps = (overrides: Partial<GenerateDependencies> = {}): GenerateDependencies => ({
  apiKey: api.apiKey,
  apiUrl: api.apiUrl,
  model: 'gpt-image-1',
  fetch,
  ...overrides,
})

const post = (body: unknown, init: RequestInit = {}) =>
  new Request('http://127.0.0.1/functions/v1/generate-business-image', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: typeof body === 'string' ? body : JSON.stringify(body),
    ...init,
  })

async function answer(response: Response): Promise<{ status: number; body: Record<string, unknown> }> {
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

describe('handleGenerate', () => {
  test('answers the image as a data URL with the prompt', async () => {
    const { status, body } = await answer(
      await handleGenerate(
        post({ businessName: 'Big Rock Coffee', prompt: 'A coffee shop', size: '1024x1024' }),
        deps(),
      ),
    )
    expect(status).toBe(200)
    expect(body).toEqual({
      image: `data:image/png;base64,${Buffer.from(api.png).toString('base64')}`,
      prompt: 'A coffee shop',
      model: 'gpt-image-1',
    })
    expect(api.requests[0]?.body).toMatchObject({ prompt: 'A coffee shop', size: '1024x1024', n: 1 })
  })

  test('writes a prompt from the business name when none is sent', async () => {
    const { body } = await answer(await handleGenerate(post({ businessName: 'Big Rock Coffee' }), deps()))
    expect(body.prompt).toMatch(/"Big Rock Coffee", a local business in Roland, Arkansas/)
  })

  test('lets browsers call it across origins', async () => {
    const preflight = await handleGenerate(new Request('http://127.0.0.1/', { method: 'OPTIONS' }), deps())
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('apikey')
  })

  test.each([
    [{ prompt: 'x' }, /businessName is required/],
    [{ businessName: '  ' }, /businessName is required/],
    [{ businessName: 'A', size: '512x512' }, /size must be "1024x1024"/],
    [{ businessName: 'A', prompt: 42 }, /prompt must be text/],
    ['{not json', /not JSON/],
    [[1, 2], /send a JSON object/],
  ])('refuses the request %j with a 400 saying what is wrong', async (body, details) => {
    const { status, body: failure } = await answer(await handleGenerate(post(body), deps()))
    expect(status).toBe(400)
    expect(failure.error).toBe('Failed to generate image')
    expect(failure.details).toMatch(details)
    expect(api.requests).toHaveLength(0)
  })

  test('refuses other methods than POST', async () => {
    const { status } = await answer(await handleGenerate(new Request('http://127.0.0.1/'), deps()))
    expect(status).toBe(405)
  })

  test('says which secret to set when it has no API key', async () => {
    const { status, body } = await answer(
      await handleGenerate(post({ businessName: 'A' }), deps({ apiKey: undefined })),
    )
    expect(status).toBe(500)
    expect(body).toMatchObject({ error: 'Failed to generate image' })
    expect(body.details).toMatch(/supabase secrets set IMAGES_API_KEY=/)
    expect(api.requests).toHaveLength(0)
  })

  test("answers 'Failed to generate image' when the images API refuses", async () => {
    const { status, body } = await answer(
      await handleGenerate(post({ businessName: 'A' }), deps({ apiKey: 'sk-wrong' })),
    )
    expect(status).toBe(502)
    expect(body.error).toBe('Failed to generate image')
    expect(body.details).toMatch(/answered HTTP 401: Incorrect API key provided/)
  })

  test("answers 'No image data received' when the images API sends no image", async () => {
    api.answer = 'no-data'
    const { status, body } = await answer(await handleGenerate(post({ businessName: 'A' }), deps()))
    expect(status).toBe(502)
    expect(body.error).toBe('No image data received')
  })
})

describe('settingsFromEnv', () => {
  test('reads IMAGES_API_KEY, IMAGES_API_URL and IMAGES_MODEL, with OpenAI defaults', () => {
    const env: Record<string, string> = { IMAGES_API_KEY: 'k1', OPENAI_API_KEY: 'k2' }
    expect(settingsFromEnv((name) => env[name])).toEqual({
      apiKey: 'k1',
      apiUrl: 'https://api.openai.com/v1',
      model: 'gpt-image-1',
    })
  })

  test('falls back to OPENAI_API_KEY, and treats blank secrets as unset', () => {
    const env: Record<string, string> = { IMAGES_API_KEY: ' ', OPENAI_API_KEY: 'k2', IMAGES_MODEL: 'dall-e-3' }
    expect(settingsFromEnv((name) => env[name])).toMatchObject({ apiKey: 'k2', model: 'dall-e-3' })
  })
})

describe('the supabase provider', () => {
  const secretKey = 'sb_secret_functions-test'
  let functions: FunctionsStandIn | undefined

  afterAll(async () => {
    await functions?.close()
  })

  async function start(options: { secrets?: Partial<GenerateDependencies>; deployed?: boolean } = {}) {
    await functions?.close()
    functions = await startFunctionsStandIn({
      key: secretKey,
      secrets: { apiKey: api.apiKey, apiUrl: api.apiUrl, model: 'gpt-image-1', ...options.secrets },
      ...(options.deployed === undefined ? {} : { deployed: options.deployed }),
    })
    return functions
  }

  const request = {
    businessName: 'Big Rock Coffee',
    slug: 'big-rock-coffee',
    style: categoryStyle('Dining & Refreshments', []),
    place: 'Roland, Arkansas',
    prompt: 'A storefront for Big Rock Coffee',
  }

  async function failure(promise: Promise<unknown>): Promise<ImageError> {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(ImageError)
    return error as ImageError
  }

  test('is chosen when SUPABASE_URL is set, and returns the image the function made', async () => {
    const server = await start()
    const provider = chooseImageProvider({
      env: { SUPABASE_URL: server.url, SUPABASE_PUBLISHABLE_KEY: 'sb_publishable_x', SUPABASE_SECRET_KEY: secretKey },
    })
    expect(provider.name).toBe('supabase')
    const image = await provider.generate(request)
    expect(Buffer.from(image.bytes).equals(Buffer.from(api.png))).toBe(true)
    expect(image).toMatchObject({ mimeType: 'image/png', prompt: request.prompt, model: 'gpt-image-1' })
    const [call] = server.requests
    expect(call?.path).toBe('/functions/v1/generate-business-image')
    expect(call?.headers.apikey).toBe(secretKey)
    expect(call?.body).toEqual({ businessName: 'Big Rock Coffee', prompt: request.prompt, size: '1024x1024' })
  })

  test("reports the function's 'No image data received'", async () => {
    const server = await start()
    api.answer = 'no-data'
    const error = await failure(supabaseImageProvider({ url: server.url, key: secretKey }).generate(request))
    expect(error.code).toBe('no-image-data')
    expect(error.message).toMatch(/^No image data received: the images API .* answered without data/)
  })

  test("reports the function's 'Failed to generate image' with the images API's reason", async () => {
    const server = await start({ secrets: { apiKey: 'sk-wrong' } })
    const error = await failure(supabaseImageProvider({ url: server.url, key: secretKey }).generate(request))
    expect(error.message).toMatch(
      /^Failed to generate image: the generate-business-image function .* answered HTTP 502: the images API .* answered HTTP 401/,
    )
  })

  test('stops the run when the function has no API key secret', async () => {
    const server = await start({ secrets: { apiKey: undefined } })
    const error = await failure(supabaseImageProvider({ url: server.url, key: secretKey }).generate(request))
    expect(error.message).toMatch(/HTTP 500: the function has no IMAGES_API_KEY secret/)
    expect(error.fatal).toBe(true)
  })

  test('says to check the key when Supabase refuses it', async () => {
    const server = await start()
    const error = await failure(supabaseImageProvider({ url: server.url, key: 'sb_secret_wrong' }).generate(request))
    expect(error.message).toMatch(/answered HTTP 401: Invalid JWT\. Check SUPABASE_SECRET_KEY/)
    expect(error.fatal).toBe(true)
  })

  test('says how to deploy the function when the project does not have it', async () => {
    const server = await start({ deployed: false })
    const error = await failure(supabaseImageProvider({ url: server.url, key: secretKey }).generate(request))
    expect(error.message).toMatch(/was not found\. Deploy it with `supabase functions deploy generate-business-image`/)
    expect(error.fatal).toBe(true)
  })
})

// Deno's globals as the function uses them; Supabase's runtime provides the real ones.
const denoGlobals = `
declare namespace Deno {
  function serve(handler: (request: Request) => Response | Promise<Response>): unknown
  const env: { get(name: string): string | undefined }
}
`

/** Type-checks the function's files with web APIs and Deno's globals only (no Node types). */
function typeCheckFunction(extra: Record<string, string> = {}): string[] {
  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ['lib.es2022.d.ts', 'lib.dom.d.ts', 'lib.dom.iterable.d.ts'],
    types: [],
    strict: true,
    noUncheckedIndexedAccess: true,
    noImplicitOverride: true,
    allowImportingTsExtensions: true,
    isolatedModules: true,
    noEmit: true,
    skipLibCheck: true,
  }
  const virtual = new Map<string, string>([[path.join(functionDir, '__deno-globals.d.ts'), denoGlobals]])
  for (const [name, text] of Object.entries(extra)) virtual.set(path.join(functionDir, name), text)
  const host = ts.createCompilerHost(options)
  const getSourceFile = host.getSourceFile.bind(host)
  const fileExists = host.fileExists.bind(host)
  const readFile = host.readFile.bind(host)
  host.getSourceFile = (name, language, ...rest) => {
    const text = virtual.get(name)
    return text === undefined ? getSourceFile(name, language, ...rest) : ts.createSourceFile(name, text, language)
  }
  host.fileExists = (name) => virtual.has(name) || fileExists(name)
  host.readFile = (name) => virtual.get(name) ?? readFile(name)
  const files = readdirSync(functionDir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(functionDir, file))
  const program = ts.createProgram([...files, ...virtual.keys()], options, host)
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')
    if (!diagnostic.file || diagnostic.start === undefined) return message
    const { line } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
    return `${path.relative(functionDir, diagnostic.file.fileName)}:${line + 1}: ${message}`
  })
}

describe('the function as Deno sees it', () => {
  test('type-checks with web APIs and the Deno globals it uses', () => {
    expect(typeCheckFunction()).toEqual([])
  })

  test('would catch Node-only code, which Deno does not run', () => {
    const problems = typeCheckFunction({
      '__node-only.ts': "import { readFile } from 'node:fs/promises'\nexport const data = Buffer.from('x')\n",
    })
    expect(problems.join('\n')).toMatch(/__node-only\.ts:1: Cannot find .*'node:fs\/promises'/)
    expect(problems.join('\n')).toMatch(/Cannot find name 'Buffer'/)
  })
})
