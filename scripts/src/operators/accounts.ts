import type { PGlite, Transaction } from '@electric-sql/pglite'
import { hash, verify } from '@node-rs/argon2'
import { createHash, randomBytes } from 'node:crypto'
import type { z } from 'zod'
import type { EmbeddedStore } from '../store/embedded.ts'
import { StoreError, type Store } from '../store/types.ts'
import { withActor } from './acting.ts'
import { lockoutMs, type SignInLimits } from './lockout.ts'
import {
  operatorEmailSchema,
  operatorPasswordSchema,
  operatorRoleSchema,
  type Actor,
  type OperatorRole,
  type OperatorView,
} from './schema.ts'

// Operator accounts of the embedded store: argon2id password hashes, server-side sessions and a
// per-account lockout, in the operators and operator_sessions tables. The CLI acts as the service
// role (it is the machine's owner); the console acts as the signed-in admin, so the table's
// policies decide (is_admin()).

/** Why an operator change was refused, for the console to pick its HTTP status. */
export type OperatorErrorCode = 'invalid' | 'duplicate' | 'not-found' | 'forbidden' | 'last-admin'

/** A refused operator change: what is wrong and how to fix it. */
export class OperatorError extends StoreError {
  override name = 'OperatorError'
  readonly code: OperatorErrorCode

  constructor(code: OperatorErrorCode, message: string) {
    super(message)
    this.code = code
  }
}

/** Runs a unit of work in one transaction, as some database role. */
export type Runner = <T>(fn: (tx: Transaction) => Promise<T>) => Promise<T>

/** The embedded Postgres of a store, or an error on Supabase (where Supabase Auth keeps the passwords). */
export function embeddedDb(store: Store): PGlite {
  if (store.kind !== 'embedded') {
    throw new StoreError(
      'Password hashes live only in the embedded store; with SUPABASE_URL set, Supabase Auth keeps the ' +
        'passwords: go through operatorDirectory() and operatorSessions() (scripts/src/operators/directory.ts).',
    )
  }
  return (store as EmbeddedStore).db
}

/** Acts as the service role (the CLI, named "cli" in the audit log). */
export function asServiceRole(db: PGlite): Runner {
  return asOperator(db, { email: 'cli', role: 'admin' })
}

/** Acts as an operator, so row-level security applies (the console); automation acts as the service role. */
export function asOperator(db: PGlite, actor: Actor): Runner {
  return async (fn) => {
    try {
      return await withActor(db, actor, fn)
    } catch (error) {
      const message = (error as Error).message
      if (/row-level security|permission denied/.test(message)) {
        throw new OperatorError('forbidden', `Only an admin may manage operators; ${actor.email} is ${actor.role}.`)
      }
      if (/last admin/.test(message)) throw new OperatorError('last-admin', message)
      throw error
    }
  }
}

/** Hashes a password with argon2id (the package's default: 19 MiB, 2 passes). */
export function hashPassword(password: string): Promise<string> {
  return hash(password)
}

// Unknown and disabled emails are checked against this hash, so they take as long as a wrong password.
let dummyHash: Promise<string> | undefined

const viewColumns = `id, email, role, disabled, to_json(created_at) #>> '{}' as created_at`
const viewColumnsOf = (alias: string) =>
  `${alias}.id, ${alias}.email, ${alias}.role, ${alias}.disabled, to_json(${alias}.created_at) #>> '{}' as created_at`

/** Lists every operator, admins first. */
export async function listOperators(run: Runner): Promise<OperatorView[]> {
  return run(async (tx) => {
    const { rows } = await tx.query<OperatorView>(`select ${viewColumns} from public.operators order by role, email`)
    return rows
  })
}

/** Adds an operator with a password, refusing a duplicate email or a weak password with what to do. */
export async function addOperator(
  run: Runner,
  input: { email: string; role: OperatorRole; password: string },
): Promise<OperatorView> {
  const email = parse(operatorEmailSchema, input.email)
  const role = parse(operatorRoleSchema, input.role)
  const passwordHash = await hashPassword(parse(operatorPasswordSchema, input.password))
  return run(async (tx) => {
    const existing = await tx.query('select 1 from public.operators where email = $1', [email])
    if (existing.rows.length) {
      throw duplicateOperator(email)
    }
    const { rows } = await tx.query<OperatorView>(
      `insert into public.operators (email, role, password_hash) values ($1, $2, $3) returning ${viewColumns}`,
      [email, role, passwordHash],
    )
    return rows[0]!
  })
}

/** Removes an operator (their sessions end with them). */
export async function removeOperator(run: Runner, which: { email?: string; id?: string }): Promise<OperatorView> {
  return run(async (tx) => {
    const { rows } = await tx.query<OperatorView>(
      `delete from public.operators where ${where(which)} returning ${viewColumns}`,
      [which.id ?? parse(operatorEmailSchema, which.email ?? '')],
    )
    return found(rows[0], which)
  })
}

/** Sets a new password and ends the operator's sessions, so a leaked session dies with the old password. */
export async function resetPassword(
  run: Runner,
  which: { email?: string; id?: string },
  password: string,
): Promise<OperatorView> {
  const passwordHash = await hashPassword(parse(operatorPasswordSchema, password))
  return run(async (tx) => {
    const { rows } = await tx.query<OperatorView>(
      `update public.operators set password_hash = $2 where ${where(which)} returning ${viewColumns}`,
      [which.id ?? parse(operatorEmailSchema, which.email ?? ''), passwordHash],
    )
    // Triggers clear the lockout and sign the operator out everywhere.
    return found(rows[0], which)
  })
}

/** Changes an operator's role. */
export async function setRole(
  run: Runner,
  which: { email?: string; id?: string },
  role: OperatorRole,
): Promise<OperatorView> {
  const checked = parse(operatorRoleSchema, role)
  return run(async (tx) => {
    const { rows } = await tx.query<OperatorView>(
      `update public.operators set role = $2 where ${where(which)} returning ${viewColumns}`,
      [which.id ?? parse(operatorEmailSchema, which.email ?? ''), checked],
    )
    return found(rows[0], which)
  })
}

/** The outcome of a sign-in: the operator, a wrong email or password (one answer for both), or a lockout. */
export type SignInOutcome =
  { kind: 'signed-in'; operator: OperatorView } | { kind: 'wrong' } | { kind: 'locked'; retryAfterMs: number }

/**
 * Checks an email and password (service role). Every email takes the same path, whether an
 * operator has it or not: a locked email is refused unchecked, the right password included;
 * otherwise the password is verified (an unknown or disabled email against a dummy hash, so it
 * answers like a wrong password in about the same time), and a wrong one counts against the
 * email. Past the free attempts the email is locked for a time that doubles.
 */
export async function checkPassword(
  db: PGlite,
  input: { email: string; password: string },
  limits: SignInLimits,
  now: () => number = Date.now,
): Promise<SignInOutcome> {
  const email = input.email.trim().toLowerCase()
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'))
  const run = asServiceRole(db)
  const { account, lockedUntil } = await run(async (tx) => {
    const operator = await tx.query<OperatorView & { password_hash: string | null }>(
      `select ${viewColumns}, password_hash from public.operators where email = $1`,
      [email],
    )
    const failures = await tx.query<{ locked_until: Date | null }>(
      'select locked_until from public.sign_in_failures where email = $1',
      [email],
    )
    return { account: operator.rows[0], lockedUntil: failures.rows[0]?.locked_until ?? null }
  })
  const lockedFor = lockedUntil ? lockedUntil.getTime() - now() : 0
  if (lockedFor > 0) return { kind: 'locked', retryAfterMs: lockedFor }
  const usable = account && !account.disabled && account.password_hash ? account : undefined
  const right = await verify(usable?.password_hash ?? (await dummyHash), input.password).catch(() => false)
  if (right && usable) {
    await run((tx) => tx.query('delete from public.sign_in_failures where email = $1', [email]))
    // Only the view's fields: never the password hash.
    return { kind: 'signed-in', operator: operatorView(usable) }
  }
  await run(async (tx) => {
    // Counted in SQL, so two wrong passwords at once both count. A day without failures forgets them.
    await tx.query(`delete from public.sign_in_failures where last_failed_at < now() - interval '1 day'`)
    const { rows } = await tx.query<{ failed_attempts: number }>(
      `insert into public.sign_in_failures as f (email, failed_attempts) values ($1, 1)
       on conflict (email) do update set failed_attempts = f.failed_attempts + 1, last_failed_at = now()
       returning failed_attempts`,
      [email],
    )
    const lockout = lockoutMs(rows[0]?.failed_attempts ?? 0, limits)
    if (lockout > 0) {
      await tx.query('update public.sign_in_failures set locked_until = $2 where email = $1', [
        email,
        new Date(now() + lockout),
      ])
    }
  })
  return { kind: 'wrong' }
}

/** Starts a session for an operator; returns the token for the cookie (only its hash is stored). */
export async function createSession(db: PGlite, operatorId: string, ttlMs: number): Promise<string> {
  const token = newSessionToken()
  await asServiceRole(db)((tx) =>
    tx.query('insert into public.operator_sessions (token_hash, operator_id, expires_at) values ($1, $2, $3)', [
      tokenHash(token),
      operatorId,
      new Date(Date.now() + ttlMs),
    ]),
  )
  return token
}

/** The operator of a live session, or null (an unknown, expired or disabled operator's token). */
export async function sessionOperator(db: PGlite, token: string): Promise<OperatorView | null> {
  return asServiceRole(db)(async (tx) => {
    await tx.query('delete from public.operator_sessions where expires_at <= now()')
    const { rows } = await tx.query<OperatorView>(
      `select ${viewColumnsOf('o')}
       from public.operator_sessions s join public.operators o on o.id = s.operator_id
       where s.token_hash = $1 and not o.disabled`,
      [tokenHash(token)],
    )
    return rows[0] ?? null
  })
}

/** Ends a session (signing out). */
export async function deleteSession(db: PGlite, token: string): Promise<void> {
  await asServiceRole(db)((tx) =>
    tx.query('delete from public.operator_sessions where token_hash = $1', [tokenHash(token)]),
  )
}

/** How many operators there are (the console's first-run hint). */
export async function operatorCount(db: PGlite): Promise<number> {
  return asServiceRole(db)(async (tx) => {
    const { rows } = await tx.query<{ count: number }>('select count(*)::int as count from public.operators')
    return rows[0]?.count ?? 0
  })
}

/** A new session token for a cookie: 32 random bytes. */
export function newSessionToken(): string {
  return randomBytes(32).toString('base64url')
}

/** The SHA-256 of a session token, as operator_sessions stores it (never the token itself). */
export function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex')
}

function where(which: { email?: string; id?: string }): string {
  return which.id ? 'id = $1' : 'email = $1'
}

/** An operator as lists show it, from a row that holds more (a password hash, the lockout state). */
export function operatorView(row: OperatorView): OperatorView {
  return { id: row.id, email: row.email, role: row.role, disabled: row.disabled, created_at: row.created_at }
}

/** The refusal of a second operator with an email that has one. */
export function duplicateOperator(email: string): OperatorError {
  return new OperatorError(
    'duplicate',
    `An operator with the email ${email} already exists: choose another email, or reset that operator's password.`,
  )
}

/** The row, or an OperatorError ('not-found') that says where to see the operators. */
export function found(row: OperatorView | undefined, which: { email?: string; id?: string }): OperatorView {
  if (row) return row
  throw new OperatorError(
    'not-found',
    `No operator ${which.email ?? which.id} (or you may not change operators): see the list with \`pnpm roland operators list\`.`,
  )
}

/** Checks a value against one of the operator schemas, or throws an OperatorError ('invalid') with its message. */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value)
  if (!parsed.success) throw new OperatorError('invalid', `${parsed.error.issues[0]?.message ?? 'Invalid input'}.`)
  return parsed.data
}
