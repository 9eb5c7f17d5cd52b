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
  type SignInOutcome,
} from './accounts.ts'
import type { SignInLimits } from './lockout.ts'
import type { Actor, OperatorRole, OperatorView } from './schema.ts'
import { supabaseOperators } from './supabase-accounts.ts'

// One interface over the operator accounts of both stores, for the CLI and the console:
// - embedded: the operators table holds argon2id hashes, checked here (accounts.ts);
// - Supabase: Supabase Auth holds the passwords; the operators table links its users to a role
//   (supabase-accounts.ts).
// Sessions are server-side on both, in operator_sessions.

/** Which operator: by email (the CLI) or by id (the console's screens). */
export interface OperatorRef {
  email?: string
  id?: string
}

/** A new operator. */
export interface NewOperator {
  email: string
  role: OperatorRole
  password: string
}

/** Managing the operators, as the CLI (service role) or as a signed-in admin. */
export interface OperatorDirectory {
  list(): Promise<OperatorView[]>
  add(input: NewOperator): Promise<OperatorView>
  remove(which: OperatorRef): Promise<OperatorView>
  /** Sets a new password and signs the operator out everywhere. */
  resetPassword(which: OperatorRef, password: string): Promise<OperatorView>
  setRole(which: OperatorRef, role: OperatorRole): Promise<OperatorView>
  /** How many operators there are (the console's first-run hint). */
  count(): Promise<number>
}

/** Signing in and the console's sessions (always the service role: nobody is signed in yet). */
export interface OperatorSessions {
  /** Checks an email and password: one answer for an unknown email and a wrong password. */
  signIn(input: { email: string; password: string }, limits: SignInLimits): Promise<SignInOutcome>
  /** Starts a session; returns the token for the cookie (only its hash is stored). */
  start(operator: OperatorView, ttlMs: number): Promise<string>
  /** The operator of a live session, or null. */
  operatorOf(token: string): Promise<OperatorView | null>
  /** Ends a session (signing out). */
  end(token: string): Promise<void>
}

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
