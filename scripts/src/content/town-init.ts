import { z } from 'zod'
import type { Actor } from '../operators/schema.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { townSettingsSchema, type TownSettings } from './schema.ts'
import { starterContent } from './starter.ts'
import { checkedPages, starterPages } from './starter-pages.ts'

// `roland town init` (issue 39): a store for a new town, its settings, starter content and pages, in
// one call of public.init_town: one transaction, so a failure leaves the store as it was.

/** Raised when a town file or an init cannot be used; the message says what to fix. */
export class TownInitError extends Error {
  override name = 'TownInitError'
}

/** What the store held before an init, and so what --force removed. */
export interface HeldContent {
  businesses: number
  attractions: number
  events: number
}

/** Reads the settings of a town file (JSON), with every mistake named by its field. */
export function parseTownFile(text: string, file: string): TownSettings {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new TownInitError(`${file} is not JSON (${(error as Error).message}): write the settings as one JSON object.`)
  }
  const parsed = townSettingsSchema.safeParse(raw)
  if (parsed.success) return parsed.data
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`)
  throw new TownInitError(
    `${file} has ${problems.length === 1 ? 'a mistake' : `${problems.length} mistakes`}: ${problems.join('; ')}. ` +
      `Fix ${problems.length === 1 ? 'it' : 'them'} and run the command again (the fields: ${Object.keys(townSettingsSchema.shape).join(', ')}).`,
  )
}

const outcomeSchema = z.discriminatedUnion('status', [
  z.object({
    status: z.literal('ok'),
    removed: z.object({ businesses: z.number(), attractions: z.number(), events: z.number() }),
    pages: z.number(),
  }),
  z.object({
    status: z.literal('holds_data'),
    held: z.object({ businesses: z.number(), attractions: z.number(), events: z.number() }),
  }),
  z.object({ status: z.literal('invalid'), message: z.string() }),
])

/**
 * Starts the store for a town: its settings, the starter content and pages written around its name,
 * and no businesses, attractions or events. Refuses a store that holds any unless `force`; answers
 * what was removed and how many pages the town starts with.
 */
export async function initTown(
  store: Store,
  settings: TownSettings,
  options: { force: boolean; actor?: Actor | undefined },
): Promise<{ removed: HeldContent; pages: number }> {
  const pages = checkedPages(starterPages(settings))
  const outcome = await callParsed(
    store,
    'init_town',
    { settings, content: { ...starterContent(settings), pages }, force: options.force, actor: options.actor ?? null },
    outcomeSchema,
  )
  if (outcome.status === 'holds_data') {
    const { businesses, attractions, events } = outcome.held
    throw new TownInitError(
      `${store.location} already holds ${businesses} businesses, ${attractions} attractions and ${events} events: ` +
        'back it up (`pnpm roland db backup`), then run `pnpm roland town init --file … --force` to replace them with an empty town.',
    )
  }
  if (outcome.status === 'invalid') {
    throw new TownInitError(`The town was refused, and the store left as it was: ${outcome.message}`)
  }
  return { removed: outcome.removed, pages: outcome.pages }
}
