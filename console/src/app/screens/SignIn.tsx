import { useState, type FormEvent } from 'react'
import { api, errorMessage } from '../api.ts'
import { Button, Card, Field } from '../components/ui.tsx'

/** The sign-in screen: the console secret, exchanged for a session cookie. */
export function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [secret, setSecret] = useState('')
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  async function submit(event: FormEvent) {
    event.preventDefault()
    if (!secret.trim()) {
      setError('Enter the console secret')
      return
    }
    setBusy(true)
    setError(null)
    try {
      await api('/api/session', { method: 'POST', body: { secret } })
      setSecret('')
      onSignedIn()
    } catch (failure) {
      setError(errorMessage(failure))
    } finally {
      setBusy(false)
    }
  }

  return (
    <main className="mx-auto flex min-h-screen max-w-md flex-col justify-center px-4">
      <h1 className="mb-6 text-center text-2xl font-bold tracking-tight">Roland Console</h1>
      <Card
        title="Sign in"
        description="Enter the console secret: CONSOLE_TOKEN from .env, or the one printed when the console started."
      >
        <form onSubmit={(event) => void submit(event)} className="flex flex-col gap-4" noValidate>
          <Field
            label="Console secret"
            name="secret"
            type="password"
            autoComplete="current-password"
            value={secret}
            onChange={(event) => setSecret(event.target.value)}
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
