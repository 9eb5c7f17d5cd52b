import type { PGlite, Transaction } from '@electric-sql/pglite'
import type { Actor } from './schema.ts'

// The acting operator is set in each writing transaction the way PostgREST sets it from a JWT,
// so the same policies (is_operator(), is_admin()) and the audit trigger apply on both stores.
// The claim names are documented in supabase/migrations/20261125000200_operators.sql.

/** The request.jwt.claims of an actor: an operator acts as `authenticated`, automation as `service_role`. */
export function jwtClaims(actor: Actor): Record<string, string> {
  return actor.id
    ? { sub: actor.id, email: actor.email, role: 'authenticated', app_role: actor.role }
    : { email: actor.email, role: 'service_role', app_role: actor.role }
}

/** Runs fn in a transaction of the embedded Postgres as the actor: its database role and its claims. */
export function withActor<T>(db: PGlite, actor: Actor, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  const claims = jwtClaims(actor)
  return db.transaction(async (tx) => {
    await tx.exec(`set local role ${claims.role === 'authenticated' ? 'authenticated' : 'service_role'}`)
    await tx.query(`select set_config('request.jwt.claims', $1, true)`, [JSON.stringify(claims)])
    return fn(tx)
  })
}
