import { useRef, useState, type FormEvent } from 'react'

// The "Notify me" form (issue 48): an email address and the topics, posted to the console's public
// route. Pre-rendered as a plain form that posts without JavaScript (the console answers with a
// page); hydrated on first touch (client:interact), it posts JSON and answers in place. The
// inputs are left uncontrolled, so what was typed before hydration stays.

interface Props {
  /** The console's POST /api/public/subscriptions. */
  action: string
  townName: string
}

const inputClass = 'w-full rounded-lg border border-stone-300 bg-white px-3 py-2.5 text-base focus:border-forest-600'

/** The subscription form. */
export default function NotifyForm({ action, townName }: Props) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null)
  const [sending, setSending] = useState(false)
  const status = useRef<HTMLParagraphElement>(null)

  async function send(event: FormEvent<HTMLFormElement>) {
    event.preventDefault()
    const data = new FormData(event.currentTarget)
    const topics = data.getAll('topics').map(String)
    if (topics.length === 0) {
      setAnswer({ ok: false, text: 'Choose what you want: town alerts, the weekly events, or both.' })
      return
    }
    setSending(true)
    try {
      const response = await fetch(action, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: data.get('email'), topics }),
      })
      const body = (await response.json().catch(() => ({}))) as { message?: string }
      setAnswer({
        ok: response.status === 202,
        text: body.message ?? (response.ok ? 'Check your email.' : 'That did not work: please try again later.'),
      })
    } catch {
      setAnswer({ ok: false, text: 'The form could not be sent: check your connection and try again.' })
    } finally {
      setSending(false)
      status.current?.focus()
    }
  }

  return (
    <form
      method="post"
      action={action}
      onSubmit={(event) => void send(event)}
      className="card flex flex-col gap-4 p-6"
      data-notify-form=""
    >
      <div>
        <label htmlFor="notify-email" className="mb-1 block text-sm font-semibold text-stone-700">
          Your email address
        </label>
        <input
          id="notify-email"
          name="email"
          type="email"
          required
          autoComplete="email"
          maxLength={254}
          className={inputClass}
        />
      </div>
      <fieldset>
        <legend className="mb-1 block text-sm font-semibold text-stone-700">Send me</legend>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="topics" value="alerts" defaultChecked /> Town alerts from {townName}, as they
          happen
        </label>
        <label className="flex items-center gap-2">
          <input type="checkbox" name="topics" value="events" /> This week&apos;s events, every Monday morning
        </label>
      </fieldset>
      <button type="submit" className="btn-primary" disabled={sending}>
        Notify me
      </button>
      <p
        ref={status}
        tabIndex={-1}
        role="status"
        className={answer && !answer.ok ? 'font-semibold text-red-800' : 'text-stone-700'}
      >
        {answer?.text}
      </p>
    </form>
  )
}
