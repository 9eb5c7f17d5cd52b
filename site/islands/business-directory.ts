import { businessesPerPage } from '../lib/business-pages.ts'
import { filtersActive, filtersQuery, noFilters, readFilters, type BusinessFilters } from '../lib/business-filter.ts'
import { parseSearchManifest, searchFilesPath, shardedSearch, type ShardedSearch } from '../lib/search-shards.ts'

// The search box and category filter of the businesses list (SPEC §2), taking over the form the
// page renders (BusinessesPage.astro) once the visitor starts to search (directory-start.ts loads
// this script). It fetches the index's manifest, then, as the visitor types, the few files each
// search needs (search-shards.ts), keeping the filters in the URL (?q=&category=) so a filtered
// view can be shared and reloaded. Only a page of results is drawn at a time; "Show more" adds the
// next. No framework: the cards arrive drawn, as the static list draws them.

/** Takes over one businesses directory: its form, its status line and its list. */
function startDirectory(root: HTMLElement): void {
  const form = root.querySelector('form')!
  const searchBox = form.querySelector<HTMLInputElement>('input[name="q"]')!
  const categorySelect = form.querySelector<HTMLSelectElement>('select[name="category"]')!
  const status = root.querySelector<HTMLElement>('[role="status"]')!
  const staticList = root.querySelector<HTMLElement>('[data-directory-list]')!
  // The results take the static list's place once a search shows (the page holds them in a template).
  const results = root.querySelector<HTMLTemplateElement>('template[data-directory-results]')!.content
    .firstElementChild as HTMLElement
  const empty = root.querySelector<HTMLTemplateElement>('template[data-directory-empty]')!
  const indexUrl = root.dataset.index!

  let search: ShardedSearch | 'loading' | 'failed' = 'loading'
  let filters: BusinessFilters = noFilters
  let shownCount = businessesPerPage
  // Each change of filters draws anew; a search that finishes after a newer one began is dropped.
  let drawing = 0

  const files = new Map<string, Promise<unknown>>()
  const load = (name: string) => {
    let file = files.get(name)
    if (!file) {
      file = fetch(searchFilesPath + name).then((response) => {
        if (!response.ok) throw new Error(`${searchFilesPath}${name} answered ${response.status}`)
        return response.json() as Promise<unknown>
      })
      files.set(name, file)
    }
    return file
  }

  const show = (fields: BusinessFilters) => {
    searchBox.value = fields.q
    categorySelect.value = fields.category
  }

  const setStatus = (text: string) => {
    if (status.textContent !== text) status.textContent = text
  }

  const drawEmpty = () => {
    results.replaceChildren(empty.content.cloneNode(true))
    results.querySelector('button')!.addEventListener('click', () => update(noFilters))
  }

  async function draw(): Promise<void> {
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
    let found: number[]
    let cards: string[]
    try {
      found = await search.find(filters)
      cards = await search.cards(found.slice(0, shownCount))
    } catch (error) {
      if (mine !== drawing) return
      // SPEC §8: the list then shows as empty; the reason goes to the console only.
      console.error('Error loading businesses:', error)
      setStatus('0 businesses')
      drawEmpty()
      return
    }
    if (mine !== drawing) return
    setStatus(found.length === 1 ? '1 business' : `${found.length} businesses`)
    if (found.length === 0) {
      drawEmpty()
      return
    }
    const list = document.createElement('ul')
    list.className = 'grid gap-6 sm:grid-cols-2 lg:grid-cols-3'
    list.innerHTML = cards.map((card) => `<li>${card}</li>`).join('')
    const parts: Node[] = [list]
    if (found.length > shownCount) {
      const more = document.createElement('div')
      more.className = 'mt-8 text-center'
      const button = document.createElement('button')
      button.type = 'button'
      button.className = 'btn-secondary'
      button.textContent = `Show more businesses (${found.length - shownCount} more)`
      button.addEventListener('click', () => {
        shownCount += businessesPerPage
        void draw()
      })
      more.append(button)
      parts.push(more)
    }
    // A photo that failed to load before (BaseLayout's inline script noted it) is not tried again.
    for (const img of list.querySelectorAll<HTMLImageElement>('img[data-fallback]')) {
      if (window.__failedImages?.has(img.src)) (img.closest('picture') ?? img).remove()
    }
    results.replaceChildren(...parts)
  }

  function update(next: BusinessFilters): void {
    filters = next
    shownCount = businessesPerPage
    show(next)
    const url = `${window.location.pathname}${filtersQuery(next)}${window.location.hash}`
    window.history.replaceState(window.history.state, '', url)
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
  void fetch(indexUrl)
    .then((response) => {
      if (!response.ok) throw new Error(`${indexUrl} answered ${response.status}`)
      return response.json() as Promise<unknown>
    })
    .then(
      (json) => {
        search = shardedSearch(parseSearchManifest(json), load)
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
