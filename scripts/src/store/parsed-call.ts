import { z } from 'zod'
import type { FunctionName } from './database.ts'
import { StoreError, type CallOptions, type Store } from './types.ts'

// A SQL function's answer is JSON to the compiler (supabase/types.ts says `Json`): it is parsed
// with zod where it enters TypeScript, so an answer a migration changed fails here, naming the
// function, rather than as a blank further on.

/** Calls a SQL function of the store and parses its answer with a schema; a StoreError says what differs. */
export async function callParsed<S extends z.ZodType>(
  store: Pick<Store, 'call'>,
  fn: FunctionName,
  args: Record<string, unknown>,
  schema: S,
  options?: CallOptions,
): Promise<z.output<S>> {
  const answer = await store.call<unknown>(fn, args, options)
  const parsed = schema.safeParse(answer)
  if (!parsed.success) {
    throw new StoreError(
      `public.${fn} answered in a shape this version does not read (${z.prettifyError(parsed.error)}): ` +
        'apply the migrations (roland db init, or supabase db push) so the database and the code agree',
    )
  }
  return parsed.data
}
