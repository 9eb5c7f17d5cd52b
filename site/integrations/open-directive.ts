import type { ClientDirective } from 'astro'

/**
 * `client:open`: hydrates an island when the visitor first opens a <details> inside it, not
 * before. The <details> works on its own until then; the island's code is fetched when it opens
 * (or at once, when the page comes back with it already open).
 */
const openDirective: ClientDirective = (load, _options, element) => {
  let started = false
  const start = async () => {
    if (started) return
    started = true
    element.removeEventListener('toggle', onToggle, true)
    const hydrate = await load()
    await hydrate()
  }
  // A toggle event does not bubble, so the island listens in the capture phase.
  const onToggle = (event: Event) => {
    if (event.target instanceof HTMLDetailsElement && event.target.open) void start()
  }
  if (element.querySelector('details[open]')) void start()
  else element.addEventListener('toggle', onToggle, true)
}

export default openDirective
