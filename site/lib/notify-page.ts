// The /notify/confirm and /notify/unsubscribe pages' script (issue 48), inlined: it puts the
// email's token (?token=… in the address) into the form, and sends the form as JSON, answering in
// place. Nothing happens until the visitor presses the button: a mail scanner that follows the
// link confirms and unsubscribes nothing.
const form = document.querySelector<HTMLFormElement>('form[data-notify-token]')
const status = document.querySelector<HTMLElement>('[data-notify-status]')
if (form && status) {
  const token = new URLSearchParams(location.search).get('token') ?? ''
  const field = form.elements.namedItem('token') as HTMLInputElement
  field.value = token
  if (!token) {
    status.textContent = 'This page needs the link from your email: open it from there.'
    form.querySelector('button')!.disabled = true
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const topics = [...form.querySelectorAll<HTMLInputElement>('input[name=topics]:checked')].map((box) => box.value)
    status.textContent = 'Sending…'
    fetch(form.action, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(form.dataset.notifyToken === 'unsubscribe' ? { token, topics } : { token }),
    })
      .then((response) => response.json())
      .then(
        (body: { message?: string }) => (status.textContent = body.message ?? 'Done.'),
        () => (status.textContent = 'That did not work: check your connection and try again.'),
      )
  })
}
