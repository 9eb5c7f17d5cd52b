import type { Store } from '../store/types.ts'
import type { SupabaseStore } from '../store/supabase.ts'
import {
  addOperator,
  asOperator,
  asServiceRole,
  checkPassword,
  createSession,
  deleteSession,
  embeddedDb,
  listOperators,
  operatorCount,
  removeOperator,
  resetPassword,
  sessionOperator,
  setRole,
} from './accounts.ts'
import type { Actor } from './schema.ts'
import type { OperatorDirectory, OperatorSessions } from './directory-types.ts'
import { supabaseOperators } from './supabase-accounts.ts'

// One interface over the operator accounts of both stores, for the CLI and the console:
// - embedded: the operators table holds argon2id hashes, checked here (accounts.ts);
// - Supabase: Supabase Auth holds the passwords; the operators table links its users to a role
//   (supabase-accounts.ts).
// Sessions are server-side on both, in operator_sessions.

/** What a directory does: directory-types.ts, apart from both homes. */
export type { NewOperator, OperatorDirectory, OperatorRef, OperatorSessions } from './directory-types.ts'

/** The operators of a store, managed as the actor (the console's admin), or as the service role (the CLI). */
export function operatorDirectory(store: Store, actor?: Actor): OperatorDirectory {
  if (store.kind === 'supabase') return supabaseOperators(store as SupabaseStore)
  const db = embeddedDb(store)
  const run = actor ? asOperator(db, actor) : asServiceRole(db)
  return {
    list: () => listOperators(run),
    add: (input) => addOperator(run, input),
    remove: (which) => removeOperator(run, which),
    resetPassword: (which, password) => resetPassword(run, which, password),
    setRole: (which, role) => setRole(run, which, role),
    count: () => operatorCount(db),
  }
}

/** The sign-in and sessions of a store's operators. */
export function operatorSessions(store: Store): OperatorSessions {
  if (store.kind === 'supabase') return supabaseOperators(store as SupabaseStore)
  const db = embeddedDb(store)
  return {
    signIn: (input, limits) => checkPassword(db, input, limits),
    start: (operator, ttlMs) => createSession(db, operator.id, ttlMs),
    operatorOf: (token) => sessionOperator(db, token),
    end: (token) => deleteSession(db, token),
  }
}
