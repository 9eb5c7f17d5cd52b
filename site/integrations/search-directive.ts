import type { ClientDirective } from 'astro'

/**
 * `client:search`: hydrates an island when the visitor starts to search, not before. Focusing a
 * field of the island's form (typing, tapping the category select) starts it; so does a URL that
 * already carries a search (?q= or ?category=), a shared or reloaded filtered view. The island's
 * value, the URL of its search index, is fetched alongside the island's code.
 */
const searchDirective: ClientDirective = (load, options, element) => {
  let started = false
  const start = async () => {
    if (started) return
    started = true
    element.removeEventListener('focusin', onFocus)
    if (typeof options.value === 'string' && options.value !== '') {
      const preload = document.createElement('link')
      preload.rel = 'preload'
      preload.as = 'fetch'
      preload.crossOrigin = 'anonymous'
      preload.href = options.value
      document.head.append(preload)
    }
    const hydrate = await load()
    await hydrate()
  }
  const onFocus = (event: FocusEvent) => {
    if (event.target instanceof Element && event.target.closest('form')) void start()
  }
  const params = new URLSearchParams(window.location.search)
  if (params.has('q') || params.has('category')) void start()
  else element.addEventListener('focusin', onFocus)
}

export default searchDirective
