import { useState, type FormEvent } from 'react'
import type { SessionView } from '../../shared/api.ts'
import { api, errorMessage } from '../api.ts'
import { Field } from '../components/forms.tsx'
import { Button, Card } from '../components/ui.tsx'

/** The sign-in screen: an operator's email and password, exchanged for a session cookie. */
export function SignIn({ onSignedIn }: { onSignedIn: (session: SessionView) => void }) {
  const [email, setEmail] = useState('')
  const [password, setPassword] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!email.trim() || !password) {
      setError('Enter your email address and password')
      return
    }
    setBusy(true)
    setError(null)
    try {
      const session = await api<SessionView>('/api/session', { method: 'POST', body: { email, password } })
      setPassword('')
      onSignedIn(session)
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <h1 className="mb-6 text-center text-2xl font-bold tracking-tight">Console</h1>
      <Card
        title="Sign in"
        description="With the email and password of your operator account. An admin creates accounts (pnpm roland operators add)."
      >
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
          <Field
            label="Email"
            name="email"
            type="email"
            autoComplete="username"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
          />
          <Field
            label="Password"
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => setPassword(event.target.value)}
            error={error}
          />
          <Button type="submit" disabled={busy}>
            {busy ? 'Signing in...' : 'Sign in'}
          </Button>
        </form>
      </Card>
    </main>
  )
}
