import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react'
import { renderMarkdown } from '@roland/scripts/content/markdown'
import { alwaysPublishedPaths, pagePatchSchema, type PageItem, type PageRow } from '@roland/scripts/content/schema'
import { api, ApiError, errorMessage } from '../api.ts'
import { Checkbox, Field, TextArea } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button } from '../components/ui.tsx'

// Pages (issue 39): the words of the site's pages, one row per URL. An editor changes a page's
// title, description, intro and Markdown body (previewed with the site's own renderer), edits its
// list entries in place and puts them in order, and takes a page off the site or back. Each save is
// checked with the shared schema first, then by the API (400 beside the field, 409 when stale),
// audited with an Undo in the history below, and waits for the next rebuild.

/** A list entry as the form edits it: every field as text, blank for none. */
interface EntryDraft {
  /** Keeps React's idea of the entry when entries move. */
  key: number
  name: string
  phone: string
  address: string
  website: string
  hours: string
  note: string
}

const entryFields = [
  { key: 'phone', label: 'Phone' },
  { key: 'address', label: 'Address' },
  { key: 'website', label: 'Website or page' },
  { key: 'hours', label: 'Hours' },
] as const

let nextKey = 1
const entryDraft = (item: Partial<PageItem> = {}): EntryDraft => ({
  key: nextKey++,
  name: item.name ?? '',
  phone: item.phone ?? '',
  address: item.address ?? '',
  website: item.website ?? '',
  hours: item.hours ?? '',
  note: item.note ?? '',
})

/** An entry as the API takes it: blank fields left out. */
const entryBody = (entry: EntryDraft): Record<string, string> =>
  Object.fromEntries(
    Object.entries(entry).filter(
      (field): field is [string, string] =>
        field[0] !== 'key' && typeof field[1] === 'string' && field[1].trim() !== '',
    ),
  )

/** The first message for each field of a refused save, by its whole path (`title`, `items.2.phone`). */
function messagesByPath(issues: ReadonlyArray<{ path: PropertyKey[] | string; message: string }>) {
  const byPath: Record<string, string> = {}
  for (const issue of issues) {
    const path = typeof issue.path === 'string' ? issue.path : issue.path.map(String).join('.')
    byPath[path] ??= issue.message
  }
  return byPath
}

const isAlwaysPublished = (path: string) => (alwaysPublishedPaths as readonly string[]).includes(path)

/** The Pages screen: every page of the site, and the editor of the one being edited. */
export function Pages() {
  const toast = useToast()
  const [pages, setPages] = useState<PageRow[] | null>(null)
  const [editing, setEditing] = useState<string | null>(null)

  const load = useCallback(
    () =>
      api<{ pages: PageRow[] }>('/api/pages').then(
        (answer) => setPages(answer.pages),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="text-2xl font-bold tracking-tight">Pages</h1>
        <p className="mt-1 text-sm text-slate-600">
          The words of the site's pages: titles, introductions, Markdown text and lists such as the emergency numbers.
          The layout stays as it is. Changes reach the site at the next rebuild.
        </p>
      </header>
      {pages === null ? <p className="text-sm text-slate-500">Loading pages...</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Pages">
        {pages?.map((page) => (
          <li key={page.id} className="flex flex-col gap-2">
            <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" data-page={page.path}>
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold">{page.title}</h2>
                <code className="text-xs text-slate-600">{page.path}</code>
                {page.items.length > 0 ? <Badge>{page.items.length} entries</Badge> : null}
                {page.is_published ? null : <Badge tone="pending">unpublished</Badge>}
                <Button
                  className="ml-auto px-3 py-1"
                  aria-label={`Edit ${page.path}`}
                  aria-expanded={editing === page.id}
                  onClick={() => setEditing(editing === page.id ? null : page.id)}
                >
                  Edit
                </Button>
              </div>
            </article>
            {editing === page.id ? (
              <PageEditor
                key={page.updated_at}
                page={page}
                onDone={(keepOpen) => {
                  if (!keepOpen) setEditing(null)
                  void load()
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  )
}

function PageEditor({ page, onDone }: { page: PageRow; onDone: (keepOpen: boolean) => void }) {
  const toast = useToast()
  const [title, setTitle] = useState(page.title)
  const [description, setDescription] = useState(page.description ?? '')
  const [intro, setIntro] = useState(page.intro ?? '')
  const [body, setBody] = useState(page.body)
  const [published, setPublished] = useState(page.is_published)
  const [entries, setEntries] = useState<EntryDraft[]>(() => page.items.map((item) => entryDraft(item)))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [saving, setSaving] = useState(false)
  // What the site would show: the same renderer, so a <script> or a javascript: link stays text here too.
  const preview = useMemo(() => renderMarkdown(body), [body])

  const setEntry = (index: number, field: keyof Omit<EntryDraft, 'key'>, value: string) =>
    setEntries((current) => current.map((entry, i) => (i === index ? { ...entry, [field]: value } : entry)))
  const move = (index: number, by: -1 | 1) => {
    setEntries((current) => {
      const next = [...current]
      const [moved] = next.splice(index, 1)
      next.splice(index + by, 0, moved!)
      return next
    })
    // The button pressed moves with its entry: keep the keyboard on it, or on its other button at an end.
    const target = index + by
    requestAnimationFrame(() => {
      const buttons = document.querySelectorAll<HTMLButtonElement>(`[data-entry-index="${target}"] [data-move]`)
      const same = [...buttons].find((button) => button.dataset.move === String(by) && !button.disabled)
      ;(same ?? [...buttons].find((button) => !button.disabled))?.focus()
    })
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    const fields = {
      title,
      description,
      intro,
      body,
      items: entries.map(entryBody),
      is_published: published,
      updated_at: page.updated_at,
    }
    const checked = pagePatchSchema.safeParse(fields)
    if (!checked.success) {
      setErrors(messagesByPath(checked.error.issues))
      return
    }
    setErrors({})
    setSaving(true)
    try {
      const answer = await api<{ page: PageRow }>(`/api/pages/${page.id}`, { method: 'PATCH', body: fields })
      toast.success(`Saved ${answer.page.title}`)
      onDone(true)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(messagesByPath(error.issues))
      else toast.error(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  const entryErrors = Object.entries(errors).filter(([path]) => path === 'items')
  return (
    <section
      aria-label={`Edit ${page.path}`}
      className="rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
      data-testid="page-editor"
    >
      <h2 className="text-lg font-semibold">
        Edit <code>{page.path}</code>
      </h2>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title="Not saved: someone else changed this page" testId="stale-alert">
            It was saved by someone else after you opened it. Reload the page to see their version, then make your
            change again.
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 flex flex-col gap-4" onSubmit={(event) => void save(event)} noValidate>
        <Field
          id="page-title"
          label="Title"
          value={title}
          onChange={(event) => setTitle(event.target.value)}
          error={errors.title}
        />
        <TextArea
          id="page-description"
          label="Description (for search engines and link previews)"
          rows={2}
          value={description}
          onChange={(event) => setDescription(event.target.value)}
          error={errors.description}
        />
        <TextArea
          id="page-intro"
          label="Intro (under the title)"
          rows={2}
          value={intro}
          onChange={(event) => setIntro(event.target.value)}
          error={errors.intro}
        />
        <div className="grid gap-4 lg:grid-cols-2">
          <TextArea
            id="page-body"
            label="Text (Markdown)"
            rows={12}
            value={body}
            onChange={(event) => setBody(event.target.value)}
            error={errors.body}
            hint="## starts a section, - starts a list item, [words](https://…) or [words](/contact) makes a link. HTML is shown as text."
          />
          <section aria-labelledby="page-preview-heading" className="flex flex-col gap-1.5">
            <h3 id="page-preview-heading" className="text-sm font-medium text-slate-800">
              Preview
            </h3>
            <div
              className="markdown-preview min-h-24 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm"
              data-testid="page-preview"
              dangerouslySetInnerHTML={{ __html: preview }}
            />
          </section>
        </div>

        <fieldset className="flex flex-col gap-3 rounded-md border border-slate-200 p-4">
          <legend className="px-1 text-sm font-medium text-slate-800">List entries ({entries.length})</legend>
          {entryErrors.map(([path, message]) => (
            <p key={path} className="text-xs text-red-700">
              {message}
            </p>
          ))}
          <ol className="flex flex-col gap-3" aria-label="List entries">
            {entries.map((entry, index) => {
              const label = entry.name.trim() || `Entry ${index + 1}`
              const error = (field: string) => errors[`items.${index}.${field}`]
              return (
                <li
                  key={entry.key}
                  className="rounded-md border border-slate-200 p-3"
                  data-entry-index={index}
                  aria-label={label}
                >
                  <div className="grid gap-3 md:grid-cols-2">
                    <Field
                      id={`page-item-${index}-name`}
                      label={`Name (entry ${index + 1})`}
                      value={entry.name}
                      onChange={(event) => setEntry(index, 'name', event.target.value)}
                      error={error('name')}
                    />
                    {entryFields.map((field) => (
                      <Field
                        key={field.key}
                        id={`page-item-${index}-${field.key}`}
                        label={`${field.label} (entry ${index + 1})`}
                        value={entry[field.key]}
                        onChange={(event) => setEntry(index, field.key, event.target.value)}
                        error={error(field.key)}
                      />
                    ))}
                    <TextArea
                      id={`page-item-${index}-note`}
                      label={`Note (entry ${index + 1})`}
                      rows={2}
                      value={entry.note}
                      onChange={(event) => setEntry(index, 'note', event.target.value)}
                      error={error('note')}
                    />
                  </div>
                  <div className="mt-3 flex flex-wrap gap-2">
                    <Button
                      variant="secondary"
                      className="px-3 py-1"
                      data-move="-1"
                      aria-label={`Move up: ${label}`}
                      disabled={index === 0}
                      onClick={() => move(index, -1)}
                    >
                      Move up
                    </Button>
                    <Button
                      variant="secondary"
                      className="px-3 py-1"
                      data-move="1"
                      aria-label={`Move down: ${label}`}
                      disabled={index === entries.length - 1}
                      onClick={() => move(index, 1)}
                    >
                      Move down
                    </Button>
                    <Button
                      variant="danger"
                      className="px-3 py-1"
                      aria-label={`Remove ${label}`}
                      onClick={() => setEntries((current) => current.filter((_, i) => i !== index))}
                    >
                      Remove
                    </Button>
                  </div>
                </li>
              )
            })}
          </ol>
          <div>
            <Button variant="secondary" onClick={() => setEntries((current) => [...current, entryDraft()])}>
              Add an entry
            </Button>
          </div>
        </fieldset>

        <div className="flex flex-col gap-1">
          <Checkbox
            id="page-published"
            label="Published (on the site, in its navigation and sitemap)"
            checked={published}
            disabled={isAlwaysPublished(page.path)}
            onChange={(event) => setPublished(event.target.checked)}
          />
          {isAlwaysPublished(page.path) ? (
            <p className="text-xs text-slate-500">The site needs this page: it stays published.</p>
          ) : null}
          {errors.is_published ? <p className="text-xs text-red-700">{errors.is_published}</p> : null}
        </div>

        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={saving}>
            Save changes
          </Button>
          <Button variant="secondary" onClick={() => onDone(false)}>
            Close
          </Button>
        </div>
      </form>
      <div className="mt-6">
        <History table="pages" rowId={page.id} refreshKey={page.updated_at} onUndone={() => onDone(true)} />
      </div>
    </section>
  )
}
