import { useCallback, useEffect, useState, type FormEvent } from 'react'
import {
  categoryPatchSchema,
  townFieldsSchema,
  townPatchSchema,
  type CategoryRow,
  type TownRow,
} from '@roland/scripts/content/schema'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { FormFields, draftOfRow, type FieldDef } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Button, Card } from '../components/ui.tsx'
import { useTown } from '../town.tsx'

// The Town screen (issue 39): the town settings, which every page of the site reads (its name,
// place, time zone, coordinator), edited by admins; and the categories' descriptions, the words
// under each section's name, edited by any operator. Both are audited with undo, refuse a stale
// save with 409, and queue a rebuild.

type TownDraft = Record<keyof typeof townFieldsSchema.shape, string>

const emptyTown: TownDraft = {
  name: '',
  state: '',
  state_code: '',
  zip: '',
  county: '',
  tagline: '',
  time_zone: '',
  country: '',
  latitude: '',
  longitude: '',
  coordinator_name: '',
  coordinator_email: '',
  contact_email: '',
  contact_phone: '',
}

const townFields: FieldDef<TownDraft>[] = [
  { kind: 'text', key: 'name', label: 'Name' },
  { kind: 'text', key: 'tagline', label: 'Tagline' },
  { kind: 'text', key: 'state', label: 'State' },
  {
    kind: 'text',
    key: 'state_code',
    id: 'state-code',
    label: 'State code',
    hint: 'Its postal abbreviation, such as CO',
  },
  { kind: 'text', key: 'zip', label: 'ZIP' },
  { kind: 'text', key: 'county', label: 'County' },
  { kind: 'text', key: 'time_zone', id: 'time-zone', label: 'Time zone', hint: 'An IANA name, such as America/Denver' },
  { kind: 'text', key: 'country', label: 'Country', hint: 'A two-letter ISO 3166 code: phone numbers follow it' },
  { kind: 'text', key: 'latitude', label: 'Latitude of the town centre' },
  { kind: 'text', key: 'longitude', label: 'Longitude of the town centre' },
  { kind: 'text', key: 'coordinator_name', id: 'coordinator-name', label: 'Coordinator name' },
  { kind: 'text', key: 'coordinator_email', id: 'coordinator-email', label: 'Coordinator email' },
  { kind: 'text', key: 'contact_email', id: 'contact-email', label: 'Contact email (optional)' },
  { kind: 'text', key: 'contact_phone', id: 'contact-phone', label: 'Contact phone (optional)' },
]

/** The fields of the draft that differ from the loaded settings, as the API takes them. */
function changesOf(draft: TownDraft, town: TownRow): Record<string, unknown> {
  const changes: Record<string, unknown> = {}
  for (const key of Object.keys(emptyTown) as (keyof TownDraft)[]) {
    const text = draft[key].trim()
    const value =
      key === 'latitude' || key === 'longitude' ? (text === '' ? text : Number(text)) : text === '' ? null : draft[key]
    if (String(value ?? '') !== String(town[key] ?? '')) changes[key] = value
  }
  return changes
}

function TownSettings({ editable }: { editable: boolean }) {
  const toast = useToast()
  const { town, setTown } = useTown()
  const [draft, setDraft] = useState<TownDraft>(() => draftOfRow(town, emptyTown))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [busy, setBusy] = useState(false)

  async function save(event: FormEvent) {
    event.preventDefault()
    const body = { ...changesOf(draft, town), updated_at: town.updated_at }
    // The same schema the server applies: mistakes show beside their field before any request.
    const checked = townPatchSchema.safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    setBusy(true)
    try {
      const answer = await api<{ town: TownRow }>('/api/town', { method: 'PATCH', body })
      setTown(answer.town)
      setDraft(draftOfRow(answer.town, emptyTown))
      toast.success(`Saved the settings of ${answer.town.name}: the site shows them after the next rebuild`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  async function reload() {
    const answer = await api<{ town: TownRow }>('/api/town')
    setTown(answer.town)
    setDraft(draftOfRow(answer.town, emptyTown))
    setStale(false)
  }

  return (
    <Card>
      <h2 className="text-lg font-semibold">Town settings</h2>
      <p className="mt-1 text-sm text-slate-600">
        {editable
          ? 'Every page of the site names the town from these settings; event times and "open now" follow its time zone.'
          : 'Only an admin changes the town settings.'}
      </p>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title="Not saved: someone else changed the town settings" testId="stale-alert">
            They were saved by someone else after you opened them.{' '}
            <button type="button" className="underline" onClick={() => void reload()}>
              Load their version
            </button>
            , then make your change again.
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2" onSubmit={(event) => void save(event)} noValidate>
        <fieldset disabled={!editable} className="contents">
          <FormFields prefix="town" fields={townFields} draft={draft} setDraft={setDraft} errors={errors} />
        </fieldset>
        {editable ? (
          <div className="md:col-span-2">
            <Button type="submit" disabled={busy}>
              Save settings
            </Button>
          </div>
        ) : null}
      </form>
      {editable ? (
        <div className="mt-6">
          <History table="town_settings" rowId="1" refreshKey={town.updated_at} onUndone={() => void reload()} />
        </div>
      ) : null}
    </Card>
  )
}

function CategoryDescription({ category, onSaved }: { category: CategoryRow; onSaved: (saved: CategoryRow) => void }) {
  const [text, setText] = useState(category.description ?? '')
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const toast = useToast()
  const id = `category-${category.slug}`

  async function save(event: FormEvent) {
    event.preventDefault()
    const body = { description: text, updated_at: category.updated_at }
    // The same schema the server applies: a description too long is named before any request.
    const checked = categoryPatchSchema.safeParse(body)
    if (!checked.success) {
      setError(issuesByField(checked.error.issues).description ?? checked.error.issues[0]!.message)
      return
    }
    setError(null)
    setSaving(true)
    try {
      const answer = await api<{ category: CategoryRow }>(`/api/categories/${category.id}`, { method: 'PATCH', body })
      onSaved(answer.category)
      toast.success(`Saved the description of ${category.name}`)
    } catch (failure) {
      // The text stays as typed: the operator fixes it or tries again.
      if (failure instanceof ApiError && failure.status === 409) {
        setError('Someone else changed this description since you loaded it: reload the page, then change it again.')
      } else if (failure instanceof ApiError && failure.issues.length) {
        setError(issuesByField(failure.issues).description ?? failure.issues[0]!.message)
      } else setError(`Not saved: ${errorMessage(failure)}`)
    } finally {
      setSaving(false)
    }
  }

  return (
    <li data-category={category.slug}>
      <form className="flex flex-col gap-2" onSubmit={(event) => void save(event)} noValidate aria-busy={saving}>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {category.name}
        </label>
        <textarea
          id={id}
          rows={2}
          value={text}
          onChange={(event) => setText(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="w-full min-w-0 rounded-md border border-slate-300 px-3 py-2 text-sm shadow-xs"
        />
        {error ? (
          <p id={`${id}-error`} role="alert" className="text-xs text-red-700">
            {error}
          </p>
        ) : null}
        <div>
          <Button type="submit" variant="secondary" disabled={saving}>
            {saving ? 'Saving...' : 'Save description'}
            <span className="sr-only"> of {category.name}</span>
          </Button>
        </div>
      </form>
    </li>
  )
}

function CategoryDescriptions() {
  const toast = useToast()
  const [categories, setCategories] = useState<CategoryRow[] | null>(null)
  const load = useCallback(
    () =>
      api<{ categories: CategoryRow[] }>('/api/categories').then(
        (answer) => setCategories(answer.categories),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )
  useEffect(() => {
    void load()
  }, [load])

  return (
    <Card>
      <h2 className="text-lg font-semibold">Category descriptions</h2>
      <p className="mt-1 text-sm text-slate-600">The words under each section&apos;s name on the site.</p>
      {categories === null ? <p className="mt-4 text-sm text-slate-500">Loading...</p> : null}
      <ul className="mt-4 flex flex-col gap-5">
        {categories?.map((category) => (
          <CategoryDescription
            key={`${category.id}-${category.updated_at}`}
            category={category}
            onSaved={(saved) => setCategories((list) => list?.map((c) => (c.id === saved.id ? saved : c)) ?? null)}
          />
        ))}
      </ul>
    </Card>
  )
}

/** The Town screen: the settings (admins change them, editors read them) and the category descriptions. */
export function Town() {
  const { canEdit } = useTown()
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-bold tracking-tight">Town</h1>
      <TownSettings editable={canEdit} />
      <CategoryDescriptions />
    </div>
  )
}
