import { z } from 'zod'
import { plainText } from '../content/schema-base.ts'

// The shapes of an operator account, shared by the CLI, the console's API and its screens.
// The table (supabase/migrations/20261125000200_operators.sql) enforces the same email and role rules.

/** What an operator may do: admin (everything, plus operators) or editor (content, jobs, rebuilds). */
export const operatorRoleSchema = z.enum(['admin', 'editor'], { message: 'The role is admin or editor' })
export type OperatorRole = z.infer<typeof operatorRoleSchema>

/** The shortest password an operator may choose. */
export const minPasswordLength = 12

/** An operator's email: trimmed and lower-cased, so one person has one account. */
export const operatorEmailSchema = plainText('The email address', 'text', 'Enter an email address')
  .trim()
  .toLowerCase()
  .min(1, 'Enter an email address')
  .max(254, 'That email address is too long')
  .regex(/^[^@\s]+@[^@\s]+$/, 'Enter an email address such as you@example.org')

/** A new password: long enough to resist guessing, short enough to hash quickly. */
export const operatorPasswordSchema = z
  .string()
  .min(minPasswordLength, `The password must be at least ${minPasswordLength} characters`)
  .max(256, 'The password must be at most 256 characters')

/** An operator as lists show it: never the password hash. */
export interface OperatorView {
  id: string
  email: string
  role: OperatorRole
  disabled: boolean
  created_at: string
}

/**
 * Who acts on the database: a signed-in operator (id: the `sub` of the claims) or the automation
 * token (no id). The audit log names `email`.
 */
export interface Actor {
  email: string
  role: OperatorRole
  /** The operator's user id (Supabase Auth) or row id (embedded); absent for automation. */
  id?: string
}

/** The automation token's actor (CONSOLE_TOKEN, for CI and scripts): an admin named "automation". */
export const automationActor: Actor = { email: 'automation', role: 'admin' }
