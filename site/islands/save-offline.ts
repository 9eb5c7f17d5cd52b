import { savingHeader, searchCacheName } from '../lib/offline.ts'
import { parseSearchManifest, searchFileNames, searchFileUrl, searchIndexPath } from '../lib/search-shards.ts'

// "Save for offline" on /businesses (BusinessesPage.astro): fetches the search's manifest, its
// script and every file of its index into the service worker's cache, so the whole directory can
// be searched with no signal. Loaded by directory-start.ts when the visitor first presses the
// button, it saves at once; pressing it again saves again (after a failure, or a rebuild).

const root = document.querySelector<HTMLElement>('[data-save-offline]')
const button = root?.querySelector('button')
const status = root?.querySelector<HTMLElement>('[role="status"]')
/** This script: saved with the search, so the button works offline too. */
const saveScript = '/businesses/save-offline.js'
/** Files fetched at once: a phone's connection is shared with the page. */
const atOnce = 6

async function save(root: HTMLElement, button: HTMLButtonElement, status: HTMLElement): Promise<void> {
  button.disabled = true
  status.textContent = 'Saving the business search…'
  try {
    const cache = await caches.open(searchCacheName)
    const fetched = new Map<string, Promise<unknown>>()
    /** Fetches one file into the cache and reads it (the service worker keeps no copy: savingHeader). */
    const keep = (url: string): Promise<unknown> => {
      let file = fetched.get(url)
      if (!file) {
        file = fetch(url, { cache: 'no-cache', headers: { [savingHeader]: '1' } }).then(async (response) => {
          if (!response.ok) throw new Error(`${url} answered ${response.status}`)
          await cache.put(url, response.clone())
          return url.endsWith('.json') ? (response.json() as Promise<unknown>) : null
        })
        fetched.set(url, file)
      }
      return file
    }
    const manifest = parseSearchManifest(await keep(searchIndexPath))
    await keep(saveScript)
    await keep('/businesses/directory.js')
    const names = await searchFileNames(manifest, (name) => keep(searchFileUrl(manifest, name)))
    let done = 0
    const next = async (): Promise<void> => {
      for (let name = names.pop(); name !== undefined; name = names.pop()) {
        await keep(searchFileUrl(manifest, name))
        if (++done % 100 === 0) status.textContent = `Saving the business search… ${done} files`
      }
    }
    await Promise.all(Array.from({ length: atOnce }, next))
    status.textContent = `Saved: the search finds all ${manifest.count} businesses on this device, even with no signal.`
  } catch {
    status.textContent = 'Not saved: the connection was lost. Try again when you have a signal.'
  } finally {
    button.disabled = false
  }
}

if (root && button && status) {
  button.onclick = () => void save(root, button, status)
  void save(root, button, status)
}
