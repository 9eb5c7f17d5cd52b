import { useCallback, useEffect, useState, type FormEvent } from 'react'
import {
  attractionCategories,
  attractionCreateSchema,
  attractionPatchSchema,
  type AttractionRow,
} from '../../shared/content.ts'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { Checkbox, Select, TextArea } from '../components/forms.tsx'
import { History } from '../components/History.tsx'
import { useToast } from '../components/Toaster.tsx'
import { Alert, Badge, Button, Field } from '../components/ui.tsx'

type Draft = {
  name: string
  category: (typeof attractionCategories)[number]
  description: string
  badge: string
  rating: string
  distance: string
  address: string
  website: string
  sort_order: string
  is_featured: boolean
  is_active: boolean
}

const emptyDraft: Draft = {
  name: '',
  category: 'Natural Attractions',
  description: '',
  badge: '',
  rating: '',
  distance: '',
  address: '',
  website: '',
  sort_order: '100',
  is_featured: false,
  is_active: true,
}

function draftOf(a: AttractionRow): Draft {
  return {
    name: a.name,
    category: a.category,
    description: a.description,
    badge: a.badge ?? '',
    rating: a.rating === null ? '' : String(a.rating),
    distance: a.distance ?? '',
    address: a.address ?? '',
    website: a.website ?? '',
    sort_order: String(a.sort_order),
    is_featured: a.is_featured,
    is_active: a.is_active,
  }
}

// Numbers typed in a form are sent as numbers, blank as none; what is no number goes as typed,
// so the shared schema names the field.
const numberOf = (text: string) => (text.trim() === '' ? null : Number.isNaN(Number(text)) ? text : Number(text))

function bodyOf(d: Draft) {
  return { ...d, rating: numberOf(d.rating), sort_order: numberOf(d.sort_order) ?? 0 }
}

/** Attractions and recreation: the places of the recreation pages and /attraction/{id}. */
export function Attractions() {
  const toast = useToast()
  const [attractions, setAttractions] = useState<AttractionRow[] | null>(null)
  // The id of the attraction being edited, 'new' for a new one, or null.
  const [editing, setEditing] = useState<string | null>(null)

  const load = useCallback(
    () =>
      api<{ attractions: AttractionRow[] }>('/api/attractions').then(
        (answer) => setAttractions(answer.attractions),
        (error: unknown) => toast.error(errorMessage(error)),
      ),
    [toast],
  )

  useEffect(() => {
    void load()
  }, [load])

  return (
    <div className="flex flex-col gap-6">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold tracking-tight">Attractions</h1>
        <Button onClick={() => setEditing('new')} disabled={editing === 'new'}>
          New attraction
        </Button>
      </header>
      {editing === 'new' ? (
        <AttractionForm
          onDone={(saved) => {
            setEditing(saved?.id ?? null)
            void load()
          }}
        />
      ) : null}
      {attractions === null ? <p className="text-sm text-slate-500">Loading attractions...</p> : null}
      <ul className="flex flex-col gap-3" aria-label="Attractions">
        {attractions?.map((attraction) => (
          <li key={attraction.id} className="flex flex-col gap-2">
            <article
              className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm"
              data-attraction={attraction.id}
            >
              <div className="flex flex-wrap items-center gap-2">
                <h2 className="font-semibold">{attraction.name}</h2>
                <Badge>{attraction.category}</Badge>
                {attraction.is_featured ? <Badge tone="success">featured</Badge> : null}
                {attraction.is_active ? null : <Badge tone="pending">hidden</Badge>}
                <Button
                  className="ml-auto px-3 py-1"
                  onClick={() => setEditing(editing === attraction.id ? null : attraction.id)}
                >
                  Edit
                </Button>
              </div>
            </article>
            {editing === attraction.id ? (
              <AttractionForm
                key={attraction.updated_at}
                attraction={attraction}
                onDone={(saved) => {
                  if (!saved) setEditing(null)
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

function AttractionForm({
  attraction,
  onDone,
}: {
  attraction?: AttractionRow
  onDone: (saved: AttractionRow | null) => void
}) {
  const toast = useToast()
  const [draft, setDraft] = useState<Draft>(() => (attraction ? draftOf(attraction) : emptyDraft))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)
  const set = (key: keyof Draft) => (e: { target: { value: string } }) =>
    setDraft((d) => ({ ...d, [key]: e.target.value }))

  async function save(e: FormEvent) {
    e.preventDefault()
    const body = attraction ? { ...bodyOf(draft), updated_at: attraction.updated_at } : bodyOf(draft)
    const checked = (attraction ? attractionPatchSchema : attractionCreateSchema).safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    try {
      const { attraction: saved } = await api<{ attraction: AttractionRow }>(
        attraction ? `/api/attractions/${attraction.id}` : '/api/attractions',
        { method: attraction ? 'PATCH' : 'POST', body },
      )
      toast.success(`Saved ${saved.name}`)
      onDone(saved)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    }
  }

  async function remove() {
    if (!attraction) return
    try {
      await api(`/api/attractions/${attraction.id}?updated_at=${encodeURIComponent(attraction.updated_at)}`, {
        method: 'DELETE',
      })
      toast.success(`Deleted ${attraction.name}`)
      onDone(null)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else toast.error(errorMessage(error))
    }
  }

  return (
    <section
      aria-label={attraction ? `Edit ${attraction.name}` : 'New attraction'}
      className="rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
      data-testid="attraction-editor"
    >
      <h2 className="text-lg font-semibold">{attraction ? `Edit ${attraction.name}` : 'New attraction'}</h2>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title="Not saved: someone else changed this attraction" testId="stale-alert">
            It was saved by someone else after you opened it. Reload the page to see their version, then make your
            change again.
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 grid gap-4 md:grid-cols-2" onSubmit={(e) => void save(e)} noValidate>
        <Field id="attraction-name" label="Name" value={draft.name} onChange={set('name')} error={errors.name} />
        <Select
          id="attraction-category"
          label="Category"
          value={draft.category}
          onChange={set('category')}
          options={attractionCategories}
        />
        <Field id="attraction-badge" label="Badge" value={draft.badge} onChange={set('badge')} error={errors.badge} />
        <Field
          id="attraction-rating"
          label="Rating (0 to 5)"
          value={draft.rating}
          onChange={set('rating')}
          error={errors.rating}
        />
        <Field
          id="attraction-distance"
          label="Distance"
          value={draft.distance}
          onChange={set('distance')}
          error={errors.distance}
        />
        <Field
          id="attraction-address"
          label="Address"
          value={draft.address}
          onChange={set('address')}
          error={errors.address}
        />
        <Field
          id="attraction-website"
          label="Website"
          value={draft.website}
          onChange={set('website')}
          error={errors.website}
        />
        <Field
          id="attraction-order"
          label="Order"
          value={draft.sort_order}
          onChange={set('sort_order')}
          error={errors.sort_order}
        />
        <Checkbox
          id="attraction-featured"
          label="Featured (leads the home page)"
          checked={draft.is_featured}
          onChange={(e) => setDraft((d) => ({ ...d, is_featured: e.target.checked }))}
        />
        <Checkbox
          id="attraction-active"
          label="Shown on the site"
          checked={draft.is_active}
          onChange={(e) => setDraft((d) => ({ ...d, is_active: e.target.checked }))}
        />
        <div className="md:col-span-2">
          <TextArea
            id="attraction-description"
            label="Description"
            rows={4}
            value={draft.description}
            onChange={set('description')}
            error={errors.description}
          />
        </div>
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit">{attraction ? 'Save changes' : 'Add attraction'}</Button>
          <Button variant="secondary" onClick={() => onDone(null)}>
            Close
          </Button>
          {attraction && confirmingDelete ? (
            <span className="flex items-center gap-2 text-sm" role="group" aria-label="Confirm deletion">
              Delete {attraction.name}?
              <Button variant="danger" className="px-3 py-1" onClick={() => void remove()}>
                Yes, delete
              </Button>
              <Button variant="secondary" className="px-3 py-1" onClick={() => setConfirmingDelete(false)}>
                Keep it
              </Button>
            </span>
          ) : attraction ? (
            <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
              Delete attraction
            </Button>
          ) : null}
        </div>
      </form>
      {attraction ? (
        <div className="mt-6">
          <History
            table="attractions"
            rowId={attraction.id}
            refreshKey={attraction.updated_at}
            onUndone={() => onDone(attraction)}
          />
        </div>
      ) : null}
    </section>
  )
}
