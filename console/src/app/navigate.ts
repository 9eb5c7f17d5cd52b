import type { MouseEvent } from 'react'

// Moving between screens without reloading: the address bar changes and the app follows it
// (App listens to popstate, which pushState alone does not fire).

/** Goes to a screen's path (with a query, such as /businesses?edit=<id>). */
export function navigate(to: string): void {
  window.history.pushState(null, '', to)
  window.dispatchEvent(new PopStateEvent('popstate'))
}

/** A link's click, handled in the app unless the operator asked for a new tab or window. */
export function follow(event: MouseEvent<HTMLAnchorElement>, to: string): void {
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return
  event.preventDefault()
  navigate(to)
}
