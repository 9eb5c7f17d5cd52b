import type { ClientDirective } from 'astro'

/**
 * `client:interact`: hydrates an island when the visitor first touches it (focus, a tap or a
 * click inside), not before. The island's HTML works on its own until then (a form posts as a
 * plain form). Kept short: every page with such an island carries it.
 */
const interactDirective: ClientDirective = (load, _options, element) => {
  const events = ['focusin', 'pointerdown']
  const start = () => {
    for (const name of events) element.removeEventListener(name, start)
    void load().then((hydrate) => hydrate())
  }
  for (const name of events) element.addEventListener(name, start)
}

export default interactDirective
