import type { Store } from '../store/types.ts'
import { contentRow, editRow, type Actor, type EditOutcome } from './edit.ts'
import { townSettingsSchema, type TownRow, type TownSettings } from './schema.ts'

// The town itself (issue 39): one row of town_settings, read by the build with the catalog, by the
// console and by the jobs. Nothing about the town is written in code; Roland is the seed.

/** The id of the one town_settings row. */
export const townRowId = '1'

/** Raised when a store has no town settings yet; the message says how to make them. */
export class TownMissingError extends Error {
  override name = 'TownMissingError'
  constructor(location: string) {
    super(
      `${location} has no town settings: start the town with \`pnpm roland town init --file town.json\` ` +
        '(see README, "Run it for another town").',
    )
  }
}

/** Reads the town settings (with their updated_at), or null when the store has none. */
export async function findTown(store: Store): Promise<TownRow | null> {
  const row = await contentRow(store, 'town_settings', townRowId)
  return row ? toTownRow(row) : null
}

/** Reads the town settings, failing with a clear message when the store has none. */
export async function readTown(store: Store): Promise<TownRow> {
  const town = await findTown(store)
  if (!town) throw new TownMissingError(store.location)
  return town
}

/** Changes the given settings, refusing when they changed since `expectedUpdatedAt` (null: whatever they are). */
export function editTown(
  store: Store,
  fields: Partial<TownSettings>,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<EditOutcome> {
  return editRow(store, 'town_settings', townRowId, fields, expectedUpdatedAt, actor)
}

/** The settings of a row as the API answers them: the fields, then updated_at. */
export function toTownRow(row: Record<string, unknown>): TownRow {
  const fields = Object.keys(townSettingsSchema.shape).map((key) => [key, row[key] ?? null])
  return { ...(Object.fromEntries(fields) as TownSettings), updated_at: String(row.updated_at) }
}
