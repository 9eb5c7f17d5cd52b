import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderStoreImage } from '../src/images/render-store.ts'
import { freshStoreIn } from './support/fresh-store.ts'
import { startImagesApiStandIn, type ImagesApiStandIn } from './images-api-stand-in.ts'

// `roland images generate` as operators and the console use it: a real process over an
// embedded database in a temporary folder, its stdout, stderr and exit code.

const run = promisify(execFile)
const cli = path.join(import.meta.dirname, '..', 'src', 'cli.ts')
let dataDir: string
let api: ImagesApiStandIn

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'roland-images-cli-'))
  api = await startImagesApiStandIn()
  // The database exists before the CLI opens it, so it holds exactly these businesses.
  const store = await freshStoreIn(dataDir)
  const { rows } = await store.db.query<{ id: string }>(`
    insert into businesses (slug, name, category) values
      ('big-rock-coffee', 'Big Rock Coffee', 'Dining & Refreshments'),
      ('lakeview-marina', 'Lakeview Marina', 'Recreation'),
      ('roland-hardware', 'Roland Hardware', 'Shopping & Convenience')
    returning id`)
  await store.addImage({
    business_id: rows[2]!.id,
    image_url: '/files/crawled/hardware.jpg',
    alt_text: null,
    image_type: 'hero',
    is_primary: true,
    sort_order: 0,
    metadata: {},
  })
  await store.close()
})

afterAll(async () => {
  await api?.close()
  await rm(dataDir, { recursive: true, force: true })
})

async function roland(args: string[], env: Record<string, string> = {}) {
  // Blank settings win over a developer's .env: these runs use the embedded store and no keys.
  const base = { ROLAND_DATA_DIR: dataDir, SUPABASE_URL: '', IMAGES_API_KEY: '', IMAGES_API_URL: '', IMAGES_MODEL: '' }
  try {
    const { stdout, stderr } = await run(process.execPath, [cli, 'images', 'generate', ...args], {
      env: { ...process.env, ...base, ...env },
      timeout: 120_000,
    })
    return { code: 0, stdout, stderr }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr }
  }
}

describe('roland images generate', () => {
  test('--business SLUG --json prints the contract object, with the stored file of the embedded store', async () => {
    const { code, stdout } = await roland(['--business', 'big-rock-coffee', '--json'])
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(Object.keys(result)).toEqual(['businessName', 'slug', 'imageUrl', 'file', 'provider', 'prompt'])
    expect(result).toMatchObject({ businessName: 'Big Rock Coffee', slug: 'big-rock-coffee', provider: 'local' })
    expect(result.imageUrl).toMatch(/^\/files\/business-images\/[0-9a-f-]{36}-hero-\d+\.png$/)
    expect(result.file).toBe(path.join(dataDir, 'storage', 'files', result.imageUrl.replace(/^\/files\//, '')))
    const expected = renderStoreImage({
      name: 'Big Rock Coffee',
      slug: 'big-rock-coffee',
      place: 'Roland, Arkansas',
      style: { category: 'Dining & Refreshments', color: '#b45309', iconName: 'utensils' },
    })
    expect((await readFile(result.file)).equals(Buffer.from(expected))).toBe(true)
  })

  test('--missing generates for businesses with no image and prints a summary', async () => {
    const { code, stdout } = await roland(['--missing'])
    expect(code).toBe(0)
    // Big Rock Coffee has one from the test before; Roland Hardware has a crawled photo.
    expect(stdout).toMatch(
      /^Generated 1 store image with the local renderer; skipped 2 \(2 already with an image\)\.$/m,
    )
    expect(stdout).toMatch(/^ {2}Lakeview Marina: \/files\/business-images\/.*\.png {2}\(.*\.png\)$/m)
  })

  test('--missing says there is nothing to do when every business has an image', async () => {
    const { code, stdout } = await roland(['--missing'])
    expect(code).toBe(0)
    expect(stdout).toBe('Every active business already has an image: nothing to generate (3 already with an image).\n')
  })

  test('--provider openai calls the images API configured in the environment', async () => {
    const { code, stdout } = await roland(['--business', 'lakeview-marina', '--provider', 'openai', '--json'], {
      IMAGES_API_KEY: api.apiKey,
      IMAGES_API_URL: api.apiUrl,
    })
    expect(code).toBe(0)
    const result = JSON.parse(stdout)
    expect(result.provider).toBe('openai')
    expect(await readFile(result.file)).toEqual(Buffer.from(api.png))
    expect(api.requests.at(-1)?.body).toMatchObject({ size: '1024x1024', model: 'gpt-image-1' })
  })

  test('an unknown slug fails with one line on stderr and exit code 1', async () => {
    const { code, stdout, stderr } = await roland(['--business', 'no-such-shop'])
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr).toMatch(/^roland: No business has the slug "no-such-shop"\. .*\n$/)
  })

  test('asking for an unconfigured provider says what to set', async () => {
    const { code, stderr } = await roland(['--business', 'big-rock-coffee', '--provider', 'openai'])
    expect(code).toBe(1)
    expect(stderr).toMatch(/^roland: The openai provider needs IMAGES_API_KEY/)
  })

  test('needs exactly one of --business and --missing', async () => {
    for (const args of [[], ['--business', 'big-rock-coffee', '--missing']]) {
      const { code, stderr } = await roland(args)
      expect(code).toBe(1)
      expect(stderr).toMatch(/^roland: Say which businesses: --business <slug> for one, or --missing/)
    }
  })

  test('leaves no lock behind, so the next command can open the database', () => {
    expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false)
  })
})
