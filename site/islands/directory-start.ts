// Starts the businesses search (business-directory.ts) when the visitor starts to search, not
// before: focusing a field of its form (typing, tapping the category select) starts it; so does a
// URL that already carries a search (?q= or ?category=), a shared or reloaded filtered view. The
// page runs this inline (BusinessesPage.astro), so it costs no request; the search's script and
// its index's manifest are fetched together once it starts.

const root = document.currentScript?.previousElementSibling
if (root instanceof HTMLElement && root.dataset.businessDirectory !== undefined) {
  let started = false
  const start = () => {
    if (started) return
    started = true
    root.removeEventListener('focusin', onFocus)
    const preload = document.createElement('link')
    preload.rel = 'preload'
    preload.as = 'fetch'
    preload.crossOrigin = 'anonymous'
    preload.href = root.dataset.index!
    const script = document.createElement('script')
    script.src = root.dataset.script!
    document.head.append(preload, script)
  }
  const onFocus = (event: FocusEvent) => {
    if (event.target instanceof Element && event.target.closest('form')) start()
  }
  const params = new URLSearchParams(window.location.search)
  if (params.has('q') || params.has('category')) start()
  else root.addEventListener('focusin', onFocus)
}

// "Save for offline" (islands/save-offline.ts): shown where a service worker can keep the search,
// its script fetched when the visitor first presses it (it then takes the button over).
const saver = document.querySelector<HTMLElement>('[data-save-offline]')
if (saver && 'serviceWorker' in navigator) {
  saver.hidden = false
  saver.querySelector('button')!.onclick = () =>
    document.head.append(Object.assign(document.createElement('script'), { src: '/businesses/save-offline.js' }))
}
