import type { ClientDirective } from 'astro'

/**
 * `client:open`: hydrates an island when the visitor first opens a <details> inside it, not
 * before. The <details> works on its own until then; the island's code is fetched when it opens
 * (or at once, when the page comes back with it already open). Every page carries this in its
 * HTML, so it is kept short.
 */
const openDirective: ClientDirective = (load, _options, element) => {
  const start = async () => (await load())()
  // A toggle event does not bubble, so the island listens in the capture phase; the first opening
  // hydrates, and the listener goes.
  const onToggle = (event: Event) => {
    if (!(event.target as HTMLDetailsElement).open) return
    element.removeEventListener('toggle', onToggle, true)
    void start()
  }
  if (element.querySelector('details[open]')) void start()
  else element.addEventListener('toggle', onToggle, true)
}

export default openDirective
