import type { SignInOutcome } from './accounts.ts'
import type { SignInLimits } from './lockout.ts'
import type { OperatorRole, OperatorView } from './schema.ts'

// What an operator directory does, apart from its two homes (directory.ts: the embedded store's;
// supabase-accounts.ts: Supabase Auth's), so each imports the contract and neither the other.

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
