import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { z } from 'zod'

// The Firecrawl key stays on the server: FIRECRAWL_API_KEY from the environment wins; else the
// key saved from the crawler screen, in a file readable only by its owner under the data folder.
// No API answer ever contains it.

const fileSchema = z.object({ firecrawlApiKey: z.string().min(1).optional() })

/** Where the Firecrawl key comes from. */
export type KeySource = 'environment' | 'console'

/** The Firecrawl key, kept server-side. */
export class FirecrawlKeyStore {
  readonly file: string
  readonly #envKey: string | null

  constructor(dataDir: string, env: NodeJS.ProcessEnv) {
    this.file = path.join(dataDir, 'console-secrets.json')
    this.#envKey = env.FIRECRAWL_API_KEY?.trim() || null
  }

  /** Reads the key and where it came from, or null when none is configured. */
  async get(): Promise<{ apiKey: string; source: KeySource } | null> {
    if (this.#envKey) return { apiKey: this.#envKey, source: 'environment' }
    let raw: string
    try {
      raw = await readFile(this.file, 'utf8')
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw error
    }
    const parsed = fileSchema.safeParse(JSON.parse(raw))
    if (!parsed.success) {
      throw new Error(`${this.file} is not a console secrets file: delete it and save the Firecrawl key again.`)
    }
    return parsed.data.firecrawlApiKey ? { apiKey: parsed.data.firecrawlApiKey, source: 'console' } : null
  }

  /** Saves a key (mode 0600). */
  async save(apiKey: string): Promise<void> {
    await mkdir(path.dirname(this.file), { recursive: true })
    await writeFile(this.file, `${JSON.stringify({ firecrawlApiKey: apiKey })}\n`, { mode: 0o600 })
    // writeFile keeps the mode of a file that already exists.
    await chmod(this.file, 0o600)
  }

  /** Forgets the saved key; a key from the environment stays. */
  async remove(): Promise<void> {
    await rm(this.file, { force: true })
  }

  /** Whether the key comes from the environment (and cannot be changed from the screen). */
  get fromEnvironment(): boolean {
    return this.#envKey !== null
  }
}
