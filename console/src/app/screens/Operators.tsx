import { useCallback, useEffect, useState, type FormEvent } from 'react'
import { minPasswordLength, type OperatorRole, type OperatorView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { Field } from '../components/forms.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Badge, Button, Card } from '../components/ui.tsx'

/** The Operators screen (admins only): who may sign in, with which role; add, remove, reset, change role. */
export function Operators() {
  const toast = useToast()
  const [operators, setOperators] = useState<OperatorView[] | null>(null)

  const load = useCallback(
    () =>
      api<{ operators: OperatorView[] }>('/api/operators').then(
        (answer) => setOperators(answer.operators),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  async function change(what: string, call: () => Promise<unknown>) {
    try {
      await call()
      toast.success(what)
      await load()
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  function resetPassword(operator: OperatorView) {
    const password = window.prompt(`New password for ${operator.email} (at least ${minPasswordLength} characters):`)
    if (password === null) return
    void change(`New password set for ${operator.email}`, () =>
      api(`/api/operators/${operator.id}/password`, { method: 'POST', body: { password } }),
    )
  }

  function remove(operator: OperatorView) {
    if (!window.confirm(`Remove ${operator.email}? They are signed out at once.`)) return
    void change(`Removed ${operator.email}`, () => api(`/api/operators/${operator.id}`, { method: 'DELETE' }))
  }

  function setRole(operator: OperatorView, role: OperatorRole) {
    void change(`${operator.email} is now ${role}`, () =>
      api(`/api/operators/${operator.id}/role`, { method: 'PUT', body: { role } }),
    )
  }

  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Operators</h1>
        <p className="mt-1 text-sm text-slate-600">
          Admins manage operators and everything else; editors keep content, run jobs and rebuild the site.
        </p>
      </header>
      <Card>
        {operators === null ? (
          <p className="text-sm text-slate-500">Loading...</p>
        ) : (
          // On a phone the address wraps and the buttons go under each other, so Remove stays on the screen.
          <table className="w-full text-left text-sm" aria-label="Operators">
            <thead className="text-xs text-slate-500 uppercase">
              <tr>
                <th className="py-2">Email</th>
                <th className="py-2">Role</th>
                <th className="py-2">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {operators.map((operator) => (
                <tr key={operator.id} className="border-t border-slate-100" data-testid="operator-row">
                  <td className="py-2 pr-2 break-all">{operator.email}</td>
                  <td className="py-2">
                    <label className="sr-only" htmlFor={`role-${operator.id}`}>
                      Role of {operator.email}
                    </label>
                    <select
                      id={`role-${operator.id}`}
                      value={operator.role}
                      onChange={(event) => setRole(operator, event.target.value as OperatorRole)}
                      className="rounded-md border border-slate-300 px-2 py-1"
                    >
                      <option value="admin">admin</option>
                      <option value="editor">editor</option>
                    </select>
                    {operator.disabled ? <Badge>disabled</Badge> : null}
                  </td>
                  <td className="py-2 pl-2">
                    <div className="flex flex-wrap justify-end gap-2">
                      <Button variant="secondary" className="px-3 py-1" onClick={() => resetPassword(operator)}>
                        Reset password
                      </Button>
                      <Button
                        variant="danger"
                        className="px-3 py-1"
                        onClick={() => remove(operator)}
                        aria-label={`Remove ${operator.email}`}
                      >
                        Remove
                      </Button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </Card>
      <AddOperator onAdded={load} />
      <Card
        title="Backup"
        description="One file with the whole database and every stored photo. Keep it somewhere safe; `pnpm roland db restore FILE` brings the store back to it."
      >
        {/* A plain link: the browser downloads the stream itself, never holding it in the page. */}
        <a
          href="/api/backup"
          download
          className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50 focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 focus-visible:outline-none"
        >
          Download a backup
        </a>
      </Card>
    </div>
  )
}

function AddOperator({ onAdded }: { onAdded: () => Promise<void> }) {
  const toast = useToast()
  const [email, setEmail] = useState('')
  const [role, setRole] = useState<OperatorRole>('editor')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    setBusy(true)
    setError(null)
    try {
      await api('/api/operators', { method: 'POST', body: { email, role, password } })
      toast.success(`Added ${email.trim().toLowerCase()} (${role})`)
      setEmail('')
      setPassword('')
      await onAdded()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <Card
      title="Add an operator"
      description="Give them the password by a safe way; they can ask an admin to reset it."
    >
      <form onSubmit={(event) => void submit(event)} className="grid grid-cols-1 gap-4 sm:grid-cols-2" noValidate>
        <Field label="Email" name="new-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        <div className="flex flex-col gap-1.5">
          <label htmlFor="new-role" className="text-sm font-medium text-slate-800">
            Role
          </label>
          <select
            id="new-role"
            value={role}
            onChange={(event) => setRole(event.target.value as OperatorRole)}
            className="rounded-md border border-slate-300 px-3 py-2 text-sm"
          >
            <option value="editor">editor: content, jobs, rebuilds</option>
            <option value="admin">admin: everything, plus operators</option>
          </select>
        </div>
        <Field
          label="Password"
          name="new-password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${minPasswordLength} characters.`}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={error}
        />
        <div className="flex items-end">
          <Button type="submit" disabled={busy}>
            {busy ? 'Adding...' : 'Add operator'}
          </Button>
        </div>
      </form>
    </Card>
  )
}
