import { useMemo, useState, type FormEvent } from 'react'
import {
  businessCategories,
  businessSchemasFor,
  type BusinessImageRow,
  type BusinessRow,
} from '@roland/scripts/content/schema'
import { servicesToText, textToServices } from '@roland/scripts/content/services'
import { api, ApiError, errorMessage, issuesByField } from '../api.ts'
import { Field, FormFields, type FieldDef } from './forms.tsx'
import { History } from './History.tsx'
import { useToast } from './Toaster.tsx'
import { Alert, Button, SafeImage } from './ui.tsx'
import { useTown } from '../town.tsx'

type Draft = Record<
  | 'name'
  | 'category'
  | 'short_description'
  | 'full_description'
  | 'address'
  | 'phone'
  | 'email'
  | 'website'
  | 'hours'
  | 'services'
  | 'search_words',
  string
> & { is_featured: boolean; is_active: boolean }

function draftOf(business: BusinessRow): Draft {
  return {
    name: business.name,
    category: business.category,
    short_description: business.short_description ?? '',
    full_description: business.full_description ?? '',
    address: business.address ?? '',
    phone: business.phone ?? '',
    email: business.email ?? '',
    website: business.website ?? '',
    hours: business.hours ?? '',
    services: servicesToText(business.services),
    search_words: (business.search_words ?? []).join(', '),
    is_featured: business.is_featured,
    is_active: business.is_active,
  }
}

// A category the site does not know (an import's) stays choosable until the operator changes it.
const categoriesWith = (category: string): readonly string[] =>
  businessCategories.includes(category as (typeof businessCategories)[number])
    ? businessCategories
    : [category, ...businessCategories]

const fields: FieldDef<Draft>[] = [
  { kind: 'text', key: 'name', label: 'Name' },
  { kind: 'select', key: 'category', label: 'Category', options: (draft) => categoriesWith(draft.category) },
  { kind: 'text', key: 'phone', label: 'Phone' },
  { kind: 'text', key: 'email', label: 'Email' },
  { kind: 'text', key: 'website', label: 'Website' },
  { kind: 'text', key: 'address', label: 'Address' },
  { kind: 'text', key: 'hours', label: 'Hours', hint: 'As visitors read it, e.g. Mon-Fri 8am-5pm, Sat 9am-1pm' },
  {
    kind: 'checkboxes',
    boxes: [
      { key: 'is_featured', id: 'featured', label: 'Featured (first on the home page)' },
      { key: 'is_active', id: 'active', label: 'Active (listed on the site)' },
    ],
  },
  { kind: 'textarea', key: 'short_description', id: 'short', label: 'Short description' },
  { kind: 'textarea', key: 'full_description', id: 'full', label: 'Description', rows: 5 },
  {
    kind: 'textarea',
    key: 'services',
    label: 'Services',
    rows: 4,
    hint: 'One per line; add a description after a colon: Boarding: overnight stays',
  },
  {
    kind: 'text',
    key: 'search_words',
    label: 'Search words',
    hint: 'Words visitors may search for that the listing does not say, separated by commas: septic, notary',
  },
]

/** Reads the search words field: comma-separated, each trimmed, empty ones left out. */
const searchWordsOf = (text: string) =>
  text
    .split(',')
    .map((word) => word.trim())
    .filter((word) => word !== '')

/** Edits every field of a business the site shows, its photos, and shows its history. */
export function BusinessEditor({
  business,
  onSaved,
  onDeleted,
  onClose,
}: {
  business: BusinessRow
  onSaved: (business: BusinessRow) => void
  onDeleted: () => void
  onClose: () => void
}) {
  const toast = useToast()
  // A phone follows the town's country, as the server checks it.
  const { country } = useTown().town
  const patchSchema = useMemo(() => businessSchemasFor(country).patch, [country])
  const [draft, setDraft] = useState<Draft>(() => draftOf(business))
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [stale, setStale] = useState(false)
  const [saving, setSaving] = useState(false)
  const [confirmingDelete, setConfirmingDelete] = useState(false)

  async function reload() {
    try {
      const { business: fresh } = await api<{ business: BusinessRow }>(`/api/businesses/${business.id}`)
      onSaved(fresh)
      setDraft(draftOf(fresh))
      setStale(false)
      setErrors({})
    } catch (error) {
      toast.error(errorMessage(error))
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault()
    const body = {
      ...draft,
      services: textToServices(draft.services),
      search_words: searchWordsOf(draft.search_words),
      category: draft.category,
      updated_at: business.updated_at,
    }
    // The same schema the server applies: mistakes show beside their field before any request.
    const checked = patchSchema.safeParse(body)
    if (!checked.success) {
      setErrors(issuesByField(checked.error.issues))
      return
    }
    setErrors({})
    setSaving(true)
    try {
      const { business: saved } = await api<{ business: BusinessRow }>(`/api/businesses/${business.id}`, {
        method: 'PATCH',
        body,
      })
      onSaved(saved)
      setDraft(draftOf(saved))
      toast.success(`Saved ${saved.name}`)
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else if (error instanceof ApiError && error.issues.length) setErrors(issuesByField(error.issues))
      else toast.error(errorMessage(error))
    } finally {
      setSaving(false)
    }
  }

  async function remove() {
    try {
      await api(`/api/businesses/${business.id}?updated_at=${encodeURIComponent(business.updated_at)}`, {
        method: 'DELETE',
      })
      toast.success(`Deleted ${business.name}`)
      onDeleted()
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) setStale(true)
      else toast.error(errorMessage(error))
    }
  }

  return (
    <section
      aria-label={`Edit ${business.name}`}
      className="rounded-xl border border-brand-600 bg-white p-5 shadow-sm"
      data-testid="business-editor"
    >
      <div className="flex items-center gap-2">
        <h2 className="text-lg font-semibold">Edit {business.name}</h2>
        <span className="text-xs text-slate-500">/business/{business.slug}</span>
        <Button variant="secondary" className="ml-auto px-3 py-1" onClick={onClose}>
          Close
        </Button>
      </div>
      {stale ? (
        <div className="mt-4">
          <Alert tone="error" title="Not saved: someone else changed this business" testId="stale-alert">
            <p>
              It was saved by someone else after you opened it. Reload to see their version, then make your change
              again.
            </p>
            <Button variant="secondary" className="mt-2 px-3 py-1" onClick={() => void reload()}>
              Reload
            </Button>
          </Alert>
        </div>
      ) : null}
      <form className="mt-4 grid grid-cols-1 gap-4 md:grid-cols-2" onSubmit={(event) => void save(event)} noValidate>
        <FormFields prefix="business" fields={fields} draft={draft} setDraft={setDraft} errors={errors} />
        <div className="flex flex-wrap gap-2 md:col-span-2">
          <Button type="submit" disabled={saving}>
            {saving ? 'Saving...' : 'Save changes'}
          </Button>
          {confirmingDelete ? (
            <span className="flex items-center gap-2 text-sm" role="group" aria-label="Confirm deletion">
              Delete {business.name} and its photos?
              <Button variant="danger" className="px-3 py-1" onClick={() => void remove()}>
                Yes, delete
              </Button>
              <Button variant="secondary" className="px-3 py-1" onClick={() => setConfirmingDelete(false)}>
                Cancel
              </Button>
            </span>
          ) : (
            <Button variant="danger" onClick={() => setConfirmingDelete(true)}>
              Delete business
            </Button>
          )}
        </div>
      </form>
      <Photos business={business} onChanged={onSaved} />
      <div className="mt-6">
        <History
          table="businesses"
          rowId={business.id}
          refreshKey={business.updated_at}
          onUndone={() => void reload()}
        />
      </div>
    </section>
  )
}

/** A business's photos: upload, primary, order, alt text, delete. */
function Photos({ business, onChanged }: { business: BusinessRow; onChanged: (business: BusinessRow) => void }) {
  const toast = useToast()
  const [file, setFile] = useState<File | null>(null)
  const [altText, setAltText] = useState('')
  const [busy, setBusy] = useState(false)

  async function refresh() {
    const { business: fresh } = await api<{ business: BusinessRow }>(`/api/businesses/${business.id}`)
    onChanged(fresh)
  }

  async function run(action: () => Promise<unknown>, done: string) {
    setBusy(true)
    try {
      await action()
      await refresh()
      toast.success(done)
    } catch (error) {
      toast.error(errorMessage(error))
    } finally {
      setBusy(false)
    }
  }

  function upload(event: FormEvent) {
    event.preventDefault()
    if (!file) {
      toast.error('Choose a photo to upload')
      return
    }
    const form = new FormData()
    form.set('file', file)
    form.set('alt_text', altText)
    void run(async () => {
      await api(`/api/businesses/${business.id}/images`, { method: 'POST', form })
      setFile(null)
      setAltText('')
    }, 'Photo uploaded')
  }

  const move = (image: BusinessImageRow, by: -1 | 1) => {
    const ids = business.images.map((i) => i.id)
    const at = ids.indexOf(image.id)
    const to = at + by
    if (to < 0 || to >= ids.length) return
    ;[ids[at], ids[to]] = [ids[to]!, ids[at]!]
    void run(
      () => api(`/api/businesses/${business.id}/images/order`, { method: 'PUT', body: { image_ids: ids } }),
      'Photos reordered',
    )
  }

  return (
    <section aria-label="Photos" className="mt-6 flex flex-col gap-3">
      <h3 className="text-sm font-semibold">Photos</h3>
      {business.images.length === 0 ? <p className="text-xs text-slate-500">No photos yet.</p> : null}
      <ul className="grid grid-cols-1 gap-3 sm:grid-cols-2" data-testid="photos">
        {business.images.map((image, index) => (
          <li key={image.id} className="flex gap-3 rounded-md border border-slate-200 p-2" data-image={image.id}>
            <SafeImage
              src={image.image_url}
              alt={image.alt_text ?? `${business.name} photo`}
              className="h-20 w-28 rounded"
            />
            <div className="flex flex-1 flex-col gap-1 text-xs">
              <span>
                {image.image_type}
                {image.is_primary ? ' · primary' : ''}
              </span>
              <AltText
                image={image}
                disabled={busy}
                onSave={(alt) =>
                  run(
                    () => api(`/api/images/${image.id}`, { method: 'PATCH', body: { alt_text: alt } }),
                    'Alt text saved',
                  )
                }
              />
              <div className="flex flex-wrap gap-1">
                <Button
                  variant="secondary"
                  className="px-2 py-0.5 text-xs"
                  disabled={busy || image.is_primary}
                  onClick={() =>
                    void run(
                      () => api(`/api/images/${image.id}`, { method: 'PATCH', body: { is_primary: true } }),
                      'Primary photo set',
                    )
                  }
                >
                  Make primary
                </Button>
                <Button
                  variant="secondary"
                  className="px-2 py-0.5 text-xs"
                  disabled={busy || index === 0}
                  onClick={() => move(image, -1)}
                  aria-label={`Move photo ${index + 1} earlier`}
                >
                  ↑
                </Button>
                <Button
                  variant="secondary"
                  className="px-2 py-0.5 text-xs"
                  disabled={busy || index === business.images.length - 1}
                  onClick={() => move(image, 1)}
                  aria-label={`Move photo ${index + 1} later`}
                >
                  ↓
                </Button>
                <Button
                  variant="danger"
                  className="px-2 py-0.5 text-xs"
                  disabled={busy}
                  onClick={() => void run(() => api(`/api/images/${image.id}`, { method: 'DELETE' }), 'Photo deleted')}
                >
                  Delete photo
                </Button>
              </div>
            </div>
          </li>
        ))}
      </ul>
      <form className="flex flex-wrap items-end gap-2" onSubmit={upload}>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="photo-file" className="text-sm font-medium">
            New photo
          </label>
          <input
            id="photo-file"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif,image/avif"
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
            className="text-sm"
          />
        </div>
        <Field id="photo-alt" label="Alt text" value={altText} onChange={(event) => setAltText(event.target.value)} />
        <Button type="submit" disabled={busy}>
          Upload photo
        </Button>
      </form>
    </section>
  )
}

function AltText({
  image,
  disabled,
  onSave,
}: {
  image: BusinessImageRow
  disabled: boolean
  onSave: (altText: string) => Promise<void>
}) {
  const [value, setValue] = useState(image.alt_text ?? '')
  return (
    <span className="flex gap-1">
      <input
        aria-label="Photo alt text"
        value={value}
        onChange={(event) => setValue(event.target.value)}
        className="flex-1 rounded border border-slate-300 px-2 py-0.5"
      />
      <Button
        variant="secondary"
        className="px-2 py-0.5 text-xs"
        disabled={disabled || value === (image.alt_text ?? '')}
        onClick={() => void onSave(value)}
      >
        Save alt text
      </Button>
    </span>
  )
}
