import { useCallback, useEffect, useMemo, useState, type FormEvent } from 'react'
import { renderMarkdown } from '@roland/scripts/content/markdown'
import { alwaysPublishedPaths, pagePatchSchema, type PageRow } from '@roland/scripts/content/schema'
import { api, ApiError, errorMessage } from '../api.ts'
import { Checkbox, Field, TextArea } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { entryBody, entryDraft, PageEntries, type EntryDraft } from '../components/PageEntries.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button } from '../components/ui.tsx'

// Pages (issue 39): the words of the site's pages, one row per URL. An editor changes a page's
// title, description, intro and Markdown body (previewed with the site's own renderer), edits its
// list entries in place and puts them in order, and takes a page off the site or back. Each save is
// checked with the shared schema first, then by the API (400 beside the field, 409 when stale),
// audited with an Undo in the history below, and waits for the next rebuild.

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
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-2">
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

        <PageEntries entries={entries} setEntries={setEntries} errors={errors} />

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
