import {
  useCallback,
  useEffect,
  useMemo,
  useState,
  type Dispatch,
  type FormEvent,
  type ReactNode,
  type SetStateAction,
} from 'react'
import type { z } from 'zod'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { draftOfRow, FormFields, type FieldDef, type FormDraft } from './forms.tsx'
import { History } from './History.tsx'
import { useToast } from './Toaster.tsx'
import { Alert, Button, Card } from './ui.tsx'

/** A row an operator edits in a list: its id, and the version a save must start from. */
export interface ContentRow {
  id: string
  updated_at: string
}

/** Saves a change to the open row (its version added), then toasts `done(saved)`. */
export type SendChange<Row> = (changes: Record<string, unknown>, done: (saved: Row) => string) => Promise<void>

/** What a list-and-editor screen declares: the kind of row, its words, its list item and its form. */
export interface ContentKind<Row extends ContentRow, Draft extends FormDraft> {
  /** One row, in the API's answers (`{event}`), the editor's ids and test id, and the texts (`New event`). */
  one: string
  /** The rows: the API path (`/api/events`), its answer (`{events}`) and the heading (`Events`). */
  many: string
  /** The audit trail's name of the table, for the history. */
  table: string
  /** A paragraph under the heading. */
  intro?: ReactNode
  /** What the list says when there are no rows. */
  empty?: string
  nameOf: (row: Row) => string
  /** The `data-` attributes that name a row's list item (what tests find it by). */
  itemData: (row: Row) => Record<`data-${string}`, string>
  /** The list item's heading and badges; `loadedAt` is when the list was loaded (Date.now()). */
  summary: (row: Row, loadedAt: number) => ReactNode
  /** The list's order, if not the API's; `loadedAt` as for summary. */
  order?: (rows: readonly Row[], loadedAt: number) => Row[]
  /** The shared schemas of scripts/src/content/schema.ts the API applies, applied here first. */
  createSchema: z.ZodType
  patchSchema: z.ZodType
  /** A new row's form; its keys are the columns a form shows (see draftOfRow). */
  emptyDraft: Draft
  /** The columns a form shows other than as stored text. */
  draftOf?: (row: Row) => Partial<Draft>
  /** The request's fields: what the form typed, turned into what the schema takes. */
  bodyOf: (draft: Draft) => Record<string, unknown>
  fields: readonly FieldDef<Draft>[]
  /** The toast after a save from the form; `added` when the row is new. */
  savedMessage: (saved: Row, added: boolean) => string
  /** Buttons beside Close for an open row (they save through `send`). */
  actions?: (row: Row, send: SendChange<Row>) => ReactNode
  /** More of the form under its fields (an event's repeat rule), with the open row when there is one. */
  extra?: (form: {
    draft: Draft
    setDraft: Dispatch<SetStateAction<Draft>>
    errors: Record<string, string>
    row: Row | undefined
    send: SendChange<Row> | undefined
  }) => ReactNode
}

/** A list of rows with an editor under the one being edited (or a new one), its history and its deletion. */
export function ContentListEditor<Row extends ContentRow, Draft extends FormDraft>({
  kind,
}: {
  kind: ContentKind<Row, Draft>
}) {
  const toast = useToast()
  const [rows, setRows] = useState<Row[] | null>(null)
  // The id of the row being edited, 'new' for a new one, or null.
  const [editing, setEditing] = useState<string | null>(null)
  const [loadedAt, setLoadedAt] = useState(() => Date.now())

  const load = useCallback(
    () =>
      api<Record<string, Row[]>>(`/api/${kind.many}`).then(
        (answer) => {
          setLoadedAt(Date.now())
          setRows(answer[kind.many] ?? [])
        },
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [kind.many, toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  const listed = useMemo(() => (rows && kind.order ? kind.order(rows, loadedAt) : rows), [rows, loadedAt, kind])
  const heading = <h1 className="text-2xl font-bold tracking-tight">{capitalised(kind.many)}</h1>
  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        {kind.intro ? (
          <div>
            {heading}
            <p className="mt-1 text-sm text-slate-600">{kind.intro}</p>
          </div>
        ) : (
          heading
        )}
        <Button onClick={() => setEditing('new')} disabled={editing === 'new'}>
          New {kind.one}
        </Button>
      </header>
      {editing === 'new' ? (
        <ContentForm
          kind={kind}
          onDone={(saved) => {
            setEditing(saved?.id ?? null)
            void load()
          }}
        />
      ) : null}
      {rows === null ? <p className="text-sm text-slate-500">Loading {kind.many}...</p> : null}
      <ul className="flex flex-col gap-3" aria-label={capitalised(kind.many)}>
        {listed?.map((row) => (
          <li key={row.id} className="flex flex-col gap-2">
            <article className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" {...kind.itemData(row)}>
              <div className="flex flex-wrap items-center gap-2">
                {kind.summary(row, loadedAt)}
                <Button className="ml-auto px-3 py-1" onClick={() => setEditing(editing === row.id ? null : row.id)}>
                  Edit
                </Button>
              </div>
            </article>
            {editing === row.id ? (
              <ContentForm
                key={row.updated_at}
                kind={kind}
                row={row}
                onDone={(saved) => {
                  if (!saved) setEditing(null)
                  void load()
                }}
              />
            ) : null}
          </li>
        ))}
      </ul>
      {kind.empty && rows?.length === 0 ? <Card description={kind.empty} /> : null}
    </div>
  )
}

const capitalised = (word: string) => word.charAt(0).toUpperCase() + word.slice(1)

function ContentForm<Row extends ContentRow, Draft extends FormDraft>({
  kind,
  row,
  onDone,
}: {
  kind: ContentKind<Row, Draft>
  row?: Row
  onDone: (saved: Row | null) => void
}) {
  const toast = useToast()
  const [draft, setDraft] = useState<Draft>(() =>
    row ? { ...draftOfRow(row, kind.emptyDraft), ...kind.draftOf?.(row) } : kind.emptyDraft,
  )
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const path = row ? `/api/${kind.many}/${row.id}` : `/api/${kind.many}`
  // A change to a loaded row names the version it starts from; an older one is refused with 409.
  const versioned = (fields: Record<string, unknown>) => (row ? { ...fields, updated_at: row.updated_at } : fields)

  async function send(body: Record<string, unknown>, done: (saved: Row) => string) {
    try {
      const answer = await api<Record<string, Row>>(path, { method: row ? 'PATCH' : 'POST', body })
      const saved = answer[kind.one] as Row
      toast.success(done(saved))
      onDone(saved)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    const body = versioned(kind.bodyOf(draft))
    // The same schema the server applies: mistakes show beside their field before any request.
    const checked = (row ? kind.patchSchema : kind.createSchema).safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    await send(body, (saved) => kind.savedMessage(saved, !row))
  }

  async function remove() {
    if (!row) return
    try {
      await api(`${path}?updated_at=${encodeURIComponent(row.updated_at)}`, { method: 'DELETE' })
      toast.success(`Deleted ${kind.nameOf(row)}`)
      onDone(null)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else toast.error(errorMessage(error))
    }
  }

  const title = row ? `Edit ${kind.nameOf(row)}` : `New ${kind.one}`
  return (
    <section
      aria-label={title}
      className="rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
      data-testid={`${kind.one}-editor`}
    >
      <h2 className="text-lg font-semibold">{title}</h2>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title={`Not saved: someone else changed this ${kind.one}`} testId="stale-alert">
            It was saved by someone else after you opened it. Reload the page to see their version, then make your
            change again.
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2" onSubmit={(event) => void save(event)} noValidate>
        <FormFields prefix={kind.one} fields={kind.fields} draft={draft} setDraft={setDraft} errors={errors} />
        {kind.extra?.({
          draft,
          setDraft,
          errors,
          row,
          send: row ? (changes, done) => send(versioned(changes), done) : undefined,
        })}
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit">{row ? 'Save changes' : `Add ${kind.one}`}</Button>
          <Button variant="secondary" onClick={() => onDone(null)}>
            Close
          </Button>
          {row ? kind.actions?.(row, (changes, done) => send(versioned(changes), done)) : null}
          {row && confirmingDelete ? (
            <span className="flex items-center gap-2 text-sm" role="group" aria-label="Confirm deletion">
              Delete {kind.nameOf(row)}?
              <Button variant="danger" className="px-3 py-1" onClick={() => void remove()}>
                Yes, delete
              </Button>
              <Button variant="secondary" className="px-3 py-1" onClick={() => setConfirmingDelete(false)}>
                Keep it
              </Button>
            </span>
          ) : row ? (
            <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
              Delete {kind.one}
            </Button>
          ) : null}
        </div>
      </form>
      {row ? (
        <div className="mt-6">
          <History table={kind.table} rowId={row.id} refreshKey={row.updated_at} onUndone={() => onDone(row)} />
        </div>
      ) : null}
    </section>
  )
}
