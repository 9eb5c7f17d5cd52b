import { createClient, isAuthApiError, type AuthError, type PostgrestError } from '@supabase/supabase-js'
import type { Database } from '../store/database.ts'
import type { SupabaseStore } from '../store/supabase.ts'
import { StoreError } from '../store/types.ts'
import {
  duplicateOperator,
  found,
  newSessionToken,
  OperatorError,
  operatorView,
  parse,
  tokenHash,
  type SignInOutcome,
} from './accounts.ts'
import type { OperatorDirectory, OperatorRef, OperatorSessions } from './directory-types.ts'
import { lockoutMs } from './lockout.ts'
import { operatorEmailSchema, operatorPasswordSchema, operatorRoleSchema, type OperatorView } from './schema.ts'

// Operators on a Supabase project: Supabase Auth holds the accounts and their passwords; the
// operators table gives an Auth user (user_id) a role. Anyone may sign up to the project's Auth,
// so a right password alone is not enough: only a user with an operators row gets in, and the
// RLS policies name operators (is_operator(), is_admin()), never `authenticated`.
//
// Everything here runs on the server with the secret key. The console checks the caller's role
// before it gets here (admins only for the directory); the operators table's triggers still keep
// the last admin. Sign-in uses a throwaway client with the publishable key, so the Auth session
// it receives is nobody else's, and ends that session at once: the console keeps its own,
// server-side, in operator_sessions, as on the embedded store.

type OperatorRow = OperatorView & { user_id: string | null }

/** A row of sign_in_failures: wrong passwords per email, operator or not. */
interface FailureRow {
  email: string
  failed_attempts: number
  locked_until: string | null
}

const viewColumns = 'id, email, role, disabled, created_at'
const rowColumns = `${viewColumns}, user_id`

/** The operator accounts of a Supabase project (Supabase Auth users with an operators row). */
export function supabaseOperators(store: SupabaseStore): OperatorDirectory & OperatorSessions {
  const where = `Supabase at ${store.settings.url}`
  const operators = () => store.admin().from('operators')
  const sessions = () => store.admin().from('operator_sessions')
  const failures = () => store.admin().from('sign_in_failures')

  const fail = (action: string, error: PostgrestError | AuthError): never => {
    if (/last admin/i.test(error.message)) throw new OperatorError('last-admin', error.message)
    throw new StoreError(`Could not ${action} (${where}): ${error.message}`)
  }

  const find = async (which: OperatorRef): Promise<OperatorRow | undefined> => {
    const query = operators().select(rowColumns)
    const { data, error } = await (which.id
      ? query.eq('id', which.id)
      : query.eq('email', parse(operatorEmailSchema, which.email ?? '')))
    if (error) return fail('read the operators', error)
    return (data as OperatorRow[])[0]
  }

  const authUserOf = (row: OperatorRow): string => {
    if (row.user_id) return row.user_id
    throw new StoreError(
      `The operator ${row.email} has no Supabase Auth user (user_id is empty): remove them and add them again.`,
    )
  }

  const endSessionsOf = async (operatorId: string) => {
    const { error } = await sessions().delete().eq('operator_id', operatorId)
    if (error) fail('end the operator’s sessions', error)
  }

  /** The id of the Auth user with this email (one who signed up, or was made in the dashboard), or null. */
  const authUserByEmail = async (email: string): Promise<string | null> => {
    for (let page = 1; ; page++) {
      const { data, error } = await store.admin().auth.admin.listUsers({ page, perPage: 1000 })
      if (error) return fail('list the Supabase Auth users', error)
      const user = data.users.find((candidate) => candidate.email?.toLowerCase() === email)
      if (user) return user.id
      if (data.users.length < 1000) return null
    }
  }

  /** Turns Supabase Auth's refusal of a password into what the operator can fix. */
  const refusedPassword = (error: AuthError, action: string): never => {
    if (error.code === 'weak_password' || (error.status === 422 && /password/i.test(error.message))) {
      throw new OperatorError('invalid', `Supabase Auth refused the password: ${error.message}.`)
    }
    return fail(action, error)
  }

  return {
    async list() {
      const { data, error } = await operators().select(viewColumns)
      if (error) return fail('list the operators', error)
      // Admins first, then by email, as on the embedded store.
      return (data as OperatorView[]).sort((a, b) => a.role.localeCompare(b.role) || a.email.localeCompare(b.email))
    },

    async add(input) {
      const email = parse(operatorEmailSchema, input.email)
      const role = parse(operatorRoleSchema, input.role)
      const password = parse(operatorPasswordSchema, input.password)
      if (await find({ email })) {
        throw duplicateOperator(email)
      }
      const auth = store.admin().auth.admin
      let userId: string
      let createdUser = false
      const created = await auth.createUser({ email, password, email_confirm: true })
      if (!created.error) {
        userId = created.data.user.id
        createdUser = true
      } else if (created.error.code === 'email_exists' || created.error.status === 422) {
        // Someone with this email already has an Auth account (signed up, or made in the dashboard):
        // make that account the operator's, with the password given here.
        const existing = await authUserByEmail(email)
        if (!existing) return refusedPassword(created.error, `create the Supabase Auth user ${email}`)
        const updated = await auth.updateUserById(existing, { password, email_confirm: true })
        if (updated.error) return refusedPassword(updated.error, `set the password of ${email}`)
        userId = existing
      } else {
        return refusedPassword(created.error, `create the Supabase Auth user ${email}`)
      }
      const { data, error } = await operators().insert({ user_id: userId, email, role }).select(viewColumns)
      if (error) {
        // Leave nothing half-made: an Auth user made for this operator goes too.
        if (createdUser) await auth.deleteUser(userId)
        return fail(`add the operator ${email}`, error)
      }
      return operatorView((data as OperatorRow[])[0]!)
    },

    async remove(which) {
      const row = await find(which)
      if (!row) return found(undefined, which)
      await endSessionsOf(row.id)
      const { error } = await operators().delete().eq('id', row.id)
      if (error) return fail(`remove the operator ${row.email}`, error)
      if (row.user_id) {
        const deleted = await store.admin().auth.admin.deleteUser(row.user_id)
        if (deleted.error && deleted.error.status !== 404) {
          throw new StoreError(
            `${row.email} is no longer an operator and cannot use the console, but Supabase Auth kept their ` +
              `account (${deleted.error.message}): delete the user in the Supabase dashboard, Authentication → Users.`,
          )
        }
      }
      return operatorView(row)
    },

    async resetPassword(which, password) {
      const checked = parse(operatorPasswordSchema, password)
      const row = await find(which)
      if (!row) return found(undefined, which)
      const updated = await store.admin().auth.admin.updateUserById(authUserOf(row), { password: checked })
      if (updated.error) return refusedPassword(updated.error, `set the password of ${row.email}`)
      // The admin who set it vouches for the operator: no lockout; and a leaked session dies with the old password.
      const { error } = await failures().delete().eq('email', row.email)
      if (error) return fail(`clear the lockout of ${row.email}`, error)
      await endSessionsOf(row.id)
      return operatorView(row)
    },

    async setRole(which, role) {
      const checked = parse(operatorRoleSchema, role)
      const row = await find(which)
      if (!row) return found(undefined, which)
      const { data, error } = await operators().update({ role: checked }).eq('id', row.id).select(viewColumns)
      if (error) return fail(`change the role of ${row.email}`, error)
      return operatorView((data as OperatorRow[])[0]!)
    },

    async count() {
      const { data, error } = await operators().select('id')
      if (error) return fail('count the operators', error)
      return data.length
    },

    async signIn(input, limits): Promise<SignInOutcome> {
      // Every email takes the same path, an operator's or not, so the answers tell nobody who has an account.
      const email = input.email.trim().toLowerCase()
      const read = await failures().select('email, failed_attempts, locked_until').eq('email', email)
      if (read.error) return fail('read the failed sign-ins', read.error)
      const failed = (read.data as FailureRow[])[0]
      const lockedFor = failed?.locked_until ? Date.parse(failed.locked_until) - Date.now() : 0
      if (lockedFor > 0) return { kind: 'locked', retryAfterMs: lockedFor }

      const account = operatorEmailSchema.safeParse(email).success ? await find({ email }) : undefined
      const { url, publicKey } = store.settings
      const client = createClient<Database>(url, publicKey, {
        auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
      })
      const { data, error } = await client.auth.signInWithPassword({ email, password: input.password })
      if (error) {
        // 400: wrong email or password (or an unconfirmed address). Anything else: Auth itself failed.
        if (!isAuthApiError(error) || error.status !== 400) {
          throw new StoreError(
            `Supabase Auth did not answer the sign-in (${error.message}): check SUPABASE_URL and that the project is up.`,
          )
        }
        return countFailure()
      }
      // The console keeps its own session; the Auth session it was handed ends here.
      await store.admin().auth.admin.signOut(data.session.access_token, 'local')
      // Only an Auth user with an operators row gets in: a stranger who signed up gets the same answer.
      if (!account || account.user_id !== data.user.id || account.disabled) return countFailure()
      if (failed) {
        const { error: clearError } = await failures().delete().eq('email', email)
        if (clearError) fail('clear the failed sign-ins', clearError)
      }
      return { kind: 'signed-in', operator: operatorView(account) }

      async function countFailure(): Promise<SignInOutcome> {
        const failedAttempts = (failed?.failed_attempts ?? 0) + 1
        const lockout = lockoutMs(failedAttempts, limits)
        const row = {
          failed_attempts: failedAttempts,
          locked_until: lockout > 0 ? new Date(Date.now() + lockout).toISOString() : (failed?.locked_until ?? null),
          last_failed_at: new Date().toISOString(),
        }
        const { error: countError } = failed
          ? await failures().update(row).eq('email', email)
          : await failures().insert({ email, ...row })
        if (countError) fail('count the failed sign-in', countError)
        return { kind: 'wrong' }
      }
    },

    async start(operator, ttlMs) {
      const token = newSessionToken()
      const { error } = await sessions().insert({
        token_hash: tokenHash(token),
        operator_id: operator.id,
        expires_at: new Date(Date.now() + ttlMs).toISOString(),
      })
      if (error) return fail('start the session', error)
      return token
    },

    async operatorOf(token) {
      const hash = tokenHash(token)
      const { data, error } = await sessions().select('operator_id, expires_at').eq('token_hash', hash)
      if (error) return fail('read the session', error)
      const session = (data as { operator_id: string; expires_at: string }[])[0]
      if (!session) return null
      if (Date.parse(session.expires_at) <= Date.now()) {
        await sessions().delete().eq('token_hash', hash)
        return null
      }
      const row = await find({ id: session.operator_id })
      return row && !row.disabled ? operatorView(row) : null
    },

    async end(token) {
      const { error } = await sessions().delete().eq('token_hash', tokenHash(token))
      if (error) fail('end the session', error)
    },
  }
}
