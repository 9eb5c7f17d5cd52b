import { importEntry, runMigration } from '../src/migrate/job.ts'
import { parseRolandText } from '../src/migrate/parse/index.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import type { Store } from '../src/store/types.ts'
import { measure, table } from './measure.ts'

const kinds = [
  ['Cafe', 'Coffee, pastries and breakfast plates made from scratch every morning.', 'Free Wi-Fi, Drive-thru'],
  ['Market', 'Groceries, fuel, ice and bait for the road to the lake.', 'ATM, Propane exchange'],
  ['Insurance Agency', 'Home, auto and farm insurance from agents who know the valley.', 'Free quotes'],
  ['Marina', 'Kayak and pontoon rentals with live bait on Lake Maumelle.', 'Kayak rentals, Fishing licences'],
] as const

/**
 * Generates a Roland.txt of n businesses in the sample file's format, each unique at any size: its
 * own name, phone number (an exchange per 10,000), website and street number.
 */
export function generateRolandText(n: number): string {
  const blocks: string[] = []
  for (let i = 0; i < n; i++) {
    const [kind, description, features] = kinds[i % kinds.length]!
    const phone = `(501) ${200 + Math.floor(i / 10000)}-${String(i % 10000).padStart(4, '0')}`
    blocks.push(
      [
        `Roland ${kind} ${i + 1} - ${description.split(' ').slice(0, 4).join(' ')}`,
        `Phone: ${phone}`,
        `Website: www.roland-${kind.toLowerCase().replace(/\s+/g, '-')}-${i + 1}.example`,
        `Address: ${100 + i} Highway 300, Roland, AR 72135`,
        'Hours: Mon-Fri 7am-6pm, Sat 8am-2pm, Sun Closed',
        description,
        `Special features: ${features}`,
      ].join('\n'),
    )
  }
  return blocks.join('\n\n')
}

/**
 * Imports generated businesses as the migration does, past Roland.txt's size limit: the limit
 * guards real files (a mistaken upload), and a bench of 100,000 businesses writes some 25 MB. For
 * benches only; an operator's file always goes through runMigration.
 */
export async function importGenerated(store: Store, n: number): Promise<void> {
  const migratedAt = new Date().toISOString()
  const entries = parseRolandText(generateRolandText(n)).map((b) => importEntry(b, migratedAt))
  await store.call('import_businesses', { entries, reset: false, dry_run: false, overwrite_edits: false })
}

/** Parse and import times for 1,000 and 10,000 generated businesses (target: 10,000 in under 5 s). */
export async function run(): Promise<void> {
  const rows: Array<Record<string, string | number>> = []
  for (const n of [1_000, 10_000]) {
    const text = generateRolandText(n)
    const parse = await measure(async () => parseRolandText(text))
    const store = await openEmbeddedStore()
    const bytes = new TextEncoder().encode(text)
    const first = await measure(() => runMigration({ store, source: { bytes } }))
    const again = await measure(() => runMigration({ store, source: { bytes } }))
    await store.close()
    rows.push({
      businesses: n,
      'file MB': (bytes.byteLength / 2 ** 20).toFixed(2),
      'parse s': parse.seconds.toFixed(2),
      'parse+import s': first.seconds.toFixed(2),
      're-import (unchanged) s': again.seconds.toFixed(2),
      'peak RSS MB': Math.round(Math.max(first.peakRssMb, again.peakRssMb)),
      added: first.result.summary.added,
      unchanged: again.result.summary.unchanged,
    })
  }
  table(rows)
}
