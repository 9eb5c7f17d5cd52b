import { businessesPerPage } from '../lib/business-pages.ts'
import { filtersActive, filtersQuery, noFilters, readFilters, type BusinessFilters } from '../lib/business-filter.ts'
import { parseSearchManifest, searchFileUrl, shardedSearch, type ShardedSearch } from '../lib/search-shards.ts'
import type { Ranking } from '@roland/scripts/search/matcher'

// The search box and category filter of the businesses list (SPEC §2), taking over the form the
// page renders (BusinessesPage.astro) once the visitor starts to search (directory-start.ts loads
// this script). It fetches the index's manifest, then, as the visitor types, the few files each
// search needs (search-shards.ts), keeping the filters in the URL (?q=&category=) so a filtered
// view can be shared and reloaded. Only a page of results is drawn at a time; "Show more" adds the
// next. The cards show in the search's rank order; when nothing matches but a close word would,
// the empty state offers it ("Did you mean …"). No framework: the cards arrive drawn, as the static
// list draws them. A page left open across a rebuild may hold the manifest of the build before: its
// files are gone (404), so it fetches the manifest again, once, and searches anew.

/** A file of the index is gone: the page holds the manifest of an older build. */
class StaleIndex extends Error {}

/** Takes over one businesses directory: its form, its status line and its list. */
function startDirectory(root: HTMLElement): void {
  const form = root.querySelector('form')!
  const searchBox = form.querySelector<HTMLInputElement>('input[name="q"]')!
  const categorySelect = form.querySelector<HTMLSelectElement>('select[name="category"]')!
  const status = root.querySelector<HTMLElement>('[role="status"]')!
  const staticList = root.querySelector<HTMLElement>('[data-directory-list]')!
  // The results take the static list's place once a search shows (made here: a template in the
  // page would cost the first round trip bytes that every visitor pays).
  const results = document.createElement('div')
  results.dataset.directoryResults = ''
  const empty = root.querySelector<HTMLTemplateElement>('template[data-directory-empty]')!
  const indexUrl = root.dataset.index!

  let search: ShardedSearch | 'loading' | 'failed' = 'loading'
  let filters: BusinessFilters = noFilters
  let shownCount = businessesPerPage
  // Each change of filters draws anew; a search that finishes after a newer one began is dropped.
  let drawing = 0

  /** Fetches the manifest (again, past the HTTP cache, when `fresh`) and searches through it. */
  const open = async (fresh: boolean): Promise<ShardedSearch> => {
    const response = await fetch(indexUrl, fresh ? { cache: 'no-cache' } : undefined)
    if (!response.ok) throw new Error(`${indexUrl} answered ${response.status}`)
    const manifest = parseSearchManifest(await response.json())
    const files = new Map<string, Promise<unknown>>()
    return shardedSearch(manifest, (name) => {
      let file = files.get(name)
      if (!file) {
        const url = searchFileUrl(manifest, name)
        file = fetch(url).then((answer) => {
          if (answer.status === 404) throw new StaleIndex(`${url} is gone: the site was rebuilt`)
          if (!answer.ok) throw new Error(`${url} answered ${answer.status}`)
          return answer.json() as Promise<unknown>
        })
        files.set(name, file)
      }
      return file
    })
  }
  // Draws that find the index stale at the same time share one fetch of the new manifest.
  let reopening: Promise<ShardedSearch> | null = null
  const reopen = (stale: ShardedSearch) => {
    reopening ??= open(true).finally(() => (reopening = null))
    return reopening.then((fresh) => {
      if (search === stale) search = fresh
    })
  }

  // Only a field that differs is set: setting a focused box's value moves its caret and costs a
  // style update in the middle of a keystroke.
  const show = (fields: BusinessFilters) => {
    if (searchBox.value !== fields.q) searchBox.value = fields.q
    if (categorySelect.value !== fields.category) categorySelect.value = fields.category
  }

  const setStatus = (text: string) => {
    if (status.textContent !== text) status.textContent = text
  }

  const drawEmpty = () => {
    results.replaceChildren(empty.content.cloneNode(true))
    results.querySelector('button')!.addEventListener('click', () => update(noFilters))
  }

  async function draw(retried = false): Promise<void> {
    const mine = ++drawing
    const active = filtersActive(filters)
    // The static list leaves the page while a search shows, as the results leave it after.
    if (active && staticList.isConnected) staticList.replaceWith(results)
    if (!active && results.isConnected) results.replaceWith(staticList)
    if (!active) {
      setStatus('')
      results.replaceChildren()
      return
    }
    if (search === 'loading') {
      setStatus('Loading businesses...')
      results.replaceChildren()
      return
    }
    if (search === 'failed') {
      setStatus('0 businesses')
      drawEmpty()
      return
    }
    const current = search
    let found: Ranking
    let shown: number[]
    let cards: string[]
    try {
      found = await current.rank(filters)
      shown = found.first(shownCount)
      cards = await current.cards(shown)
    } catch (error) {
      if (mine !== drawing) return
      if (error instanceof StaleIndex && !retried) {
        const again = await reopen(current).then(
          () => true,
          () => false,
        )
        if (again && mine === drawing) return draw(true)
      }
      if (mine !== drawing) return
      // SPEC §8: the list then shows as empty; the reason goes to the console only.
      console.error('Error loading businesses:', error)
      setStatus('0 businesses')
      drawEmpty()
      return
    }
    if (mine !== drawing) return
    setStatus(found.count === 1 ? '1 business' : `${found.count} businesses`)
    if (found.count === 0) {
      drawEmpty()
      void offerSuggestion(current, filters, mine)
      return
    }
    placeCards(drawnCards(current, shown, cards))
    const parts: Node[] = [list]
    if (found.count > shownCount) {
      const label = `Show more businesses (${found.count - shownCount} more)`
      if (moreButton.textContent !== label) moreButton.textContent = label
      parts.push(more)
    }
    if (parts.length !== results.childNodes.length || parts.some((part, i) => results.childNodes[i] !== part))
      results.replaceChildren(...parts)
    // Drawn: a search whose page of results is the one shown already changes nothing else.
    results.dataset.drawn = String(mine)
  }

  // The list of results and its "Show more", kept from one search to the next: as the visitor types,
  // the cards that stay in place stay in the page, and only those that change are moved, added or
  // taken out (a card put back in the page costs the browser its style, layout and image again).
  const list = document.createElement('ul')
  list.className = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3'
  const more = document.createElement('div')
  more.className = 'mt-8 text-center'
  const moreButton = document.createElement('button')
  moreButton.type = 'button'
  moreButton.className = 'btn-secondary'
  moreButton.addEventListener('click', () => {
    shownCount += businessesPerPage
    void draw()
  })
  more.append(moreButton)

  /** Makes the list show these cards, in this order, moving only those not in their place. */
  const placeCards = (items: readonly HTMLLIElement[]) => {
    items.forEach((item, i) => {
      const at = list.children[i]
      if (at !== item) list.insertBefore(item, at ?? null)
    })
    while (list.children.length > items.length) list.lastElementChild!.remove()
  }

  /** Offers "Did you mean …" in the empty state when a close word would find businesses. */
  const offerSuggestion = async (current: ShardedSearch, searched: BusinessFilters, mine: number) => {
    let suggestion: string | null
    try {
      suggestion = await current.suggest(searched)
    } catch {
      // The empty state already says what matters; a suggestion is a bonus.
      return
    }
    const clear = results.querySelector('button')
    if (suggestion === null || mine !== drawing || !clear) return
    const next = { ...searched, q: suggestion }
    const link = document.createElement('a')
    link.href = `${window.location.pathname}${filtersQuery(next)}`
    // Classes the stylesheet already has: a new utility would weigh on every page's first round trip.
    link.className = 'font-semibold text-forest-800'
    link.style.textDecorationLine = 'underline'
    link.textContent = suggestion
    link.addEventListener('click', (event) => {
      event.preventDefault()
      update(next)
    })
    const line = document.createElement('p')
    line.className = 'mb-4 text-stone-800'
    line.append('Did you mean ', link, '?')
    clear.before(line)
  }

  // The cards drawn so far, by business number in the index they came from: as the visitor types,
  // most searches find businesses already shown, whose cards move rather than being parsed again.
  // The most recently shown are kept (a Map iterates in the order entries were set): at most 1,000.
  let cardsOf: { search: ShardedSearch; items: Map<number, HTMLLIElement> } | null = null
  const keptCards = 1000
  const drawnCards = (search: ShardedSearch, ids: readonly number[], cards: readonly string[]) => {
    if (cardsOf?.search !== search) cardsOf = { search, items: new Map() }
    const items = cardsOf.items
    for (const id of ids) {
      const item = items.get(id)
      if (item === undefined) continue
      items.delete(id)
      items.set(id, item)
    }
    for (const id of items.keys()) {
      if (items.size <= keptCards - ids.length) break
      items.delete(id)
    }
    const fresh = ids.flatMap((id, i) => (items.has(id) ? [] : [i]))
    if (fresh.length > 0) {
      const parsed = document.createElement('ul')
      parsed.innerHTML = fresh.map((i) => `<li>${cards[i]}</li>`).join('')
      // A photo that failed to load before (BaseLayout's inline script noted it) is not tried again.
      for (const img of parsed.querySelectorAll<HTMLImageElement>('img[data-fallback]')) {
        if (window.__failedImages?.has(img.src)) (img.closest('picture') ?? img).remove()
      }
      const made = [...parsed.children] as HTMLLIElement[]
      fresh.forEach((i, n) => items.set(ids[i]!, made[n]!))
    }
    return ids.map((id) => items.get(id)!)
  }

  // The address follows the filters once the visitor pauses, not on every keystroke: Chromium's
  // history.replaceState updates the page's style and tells the browser process each time (1 ms
  // typically, 10 ms at worst, measured on /businesses), which a keystroke would wait for. It is
  // written at once when the visitor clicks in the list (a card's link: Back then returns to
  // this search) or leaves the page.
  let addressTimer: ReturnType<typeof setTimeout> | undefined
  const addressPauseMs = 300
  const writeAddress = () => {
    clearTimeout(addressTimer)
    addressTimer = undefined
    const url = `${window.location.pathname}${filtersQuery(filters)}${window.location.hash}`
    if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
      window.history.replaceState(window.history.state, '', url)
    }
  }
  const flushAddress = () => {
    if (addressTimer !== undefined) writeAddress()
  }
  root.addEventListener('click', flushAddress, true)
  window.addEventListener('pagehide', flushAddress)
  document.addEventListener('visibilitychange', flushAddress)

  function update(next: BusinessFilters): void {
    filters = next
    shownCount = businessesPerPage
    show(next)
    clearTimeout(addressTimer)
    addressTimer = setTimeout(writeAddress, addressPauseMs)
    void draw()
  }

  // A photo of a result that fails to load is taken out, uncovering the building icon beneath it.
  results.addEventListener(
    'error',
    (event) => {
      const img = event.target
      if (img instanceof HTMLImageElement && img.hasAttribute('data-fallback')) (img.closest('picture') ?? img).remove()
    },
    true,
  )
  form.addEventListener('submit', (event) => event.preventDefault())
  searchBox.addEventListener('input', () => update({ ...filters, q: searchBox.value }))
  categorySelect.addEventListener('change', () => update({ ...filters, category: categorySelect.value }))
  window.addEventListener('popstate', () => {
    clearTimeout(addressTimer)
    addressTimer = undefined
    filters = readFilters(window.location.search)
    shownCount = businessesPerPage
    show(filters)
    void draw()
  })

  // What the visitor typed or chose while the script was loading wins over the URL.
  const typed = { q: searchBox.value, category: categorySelect.value }
  if (filtersActive(typed)) update(typed)
  else {
    filters = readFilters(window.location.search)
    show(filters)
    void draw()
  }
  root.dataset.directory = 'loading'
  void open(false)
    .then(
      (opened) => {
        search = opened
      },
      (error: unknown) => {
        // SPEC §8: the list then shows as empty; the reason goes to the console only.
        console.error('Error loading businesses:', error)
        search = 'failed'
      },
    )
    .then(() => draw())
    .then(() => {
      root.dataset.directory = search === 'failed' ? 'failed' : 'ready'
    })
}

for (const root of document.querySelectorAll<HTMLElement>('[data-business-directory]')) {
  if (root.dataset.directory === 'static') startDirectory(root)
}
