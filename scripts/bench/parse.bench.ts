import { readdirSync, readFileSync } from 'node:fs'
import { parseRolandText, RolandFileError } from '../src/migrate/parse/index.ts'
import { measure, table } from './measure.ts'

// Issue 42's target: the parser reads any text in under a second per 100 KB. Measured on the fixture
// lists repeated to 100 KB and 1 MB, and on text that is no list at all (random printable characters).

const fixtures = new URL('../test/fixtures/', import.meta.url)
const lists = ['towns/', 'unseen/'].flatMap((folder) =>
  readdirSync(new URL(folder, fixtures))
    .filter((file) => file.endsWith('.txt'))
    .map((file) => readFileSync(new URL(`${folder}${file}`, fixtures), 'utf8')),
)

function repeatTo(text: string, bytes: number): string {
  let result = text
  while (result.length < bytes) result += `\n\n${text}`
  return result.slice(0, bytes)
}

function noise(bytes: number): string {
  let seed = 42
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31)
  const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 -/.:;,()\n\t'
  return Array.from({ length: bytes }, () => alphabet[next() % alphabet.length]).join('')
}

/** Parse time for 100 KB and 1 MB of fixture lists and of noise, and seconds per 100 KB. */
export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = []
  for (const [kind, make] of [
    ['fixture lists', (bytes: number) => repeatTo(lists.join('\n\n'), bytes)],
    ['noise', noise],
  ] as const) {
    for (const bytes of [100_000, 1_000_000]) {
      const text = make(bytes)
      const parse = await measure(async () => {
        try {
          return parseRolandText(text).length
        } catch (error) {
          if (error instanceof RolandFileError) return 0
          throw error
        }
      })
      rows.push({
        text: kind,
        KB: bytes / 1000,
        'parse s': parse.seconds.toFixed(2),
        's per 100 KB': ((parse.seconds * 100_000) / bytes).toFixed(2),
        businesses: parse.result,
      })
    }
  }
  table(rows)
}
