import type { Dispatch, SetStateAction } from 'react'
import type { PageItem } from '@roland/scripts/content/schema'
import { Field, TextArea } from './forms.tsx'
import { Button } from './ui.tsx'

// A page's list entries (the emergency numbers, the churches, …) as the Pages editor edits them:
// each entry's fields in place, moved up and down with the keyboard kept on the pressed button,
// added and removed. The editor owns the list and saves it; this draws it and changes it.

/** A list entry as the form edits it: every field as text, blank for none. */
export interface EntryDraft {
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

/** Makes the form's draft of a stored entry, or a blank one. */
export const entryDraft = (item: Partial<PageItem> = {}): EntryDraft => ({
  key: nextKey++,
  name: item.name ?? '',
  phone: item.phone ?? '',
  address: item.address ?? '',
  website: item.website ?? '',
  hours: item.hours ?? '',
  note: item.note ?? '',
})

/** Turns an entry into what the API takes: blank fields left out. */
export const entryBody = (entry: EntryDraft): Record<string, string> =>
  Object.fromEntries(
    Object.entries(entry).filter(
      (field): field is [string, string] =>
        field[0] !== 'key' && typeof field[1] === 'string' && field[1].trim() !== '',
    ),
  )

/**
 * Draws a page's list entries with their fields, errors (by whole path: `items`, `items.2.phone`)
 * and buttons to move, remove and add entries.
 */
export function PageEntries({
  entries,
  setEntries,
  errors,
}: {
  entries: EntryDraft[]
  setEntries: Dispatch<SetStateAction<EntryDraft[]>>
  errors: Record<string, string>
}) {
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

  return (
    <fieldset className="flex min-w-0 flex-col gap-3 rounded-md border border-slate-200 p-4">
      <legend className="px-1 text-sm font-medium text-slate-800">List entries ({entries.length})</legend>
      {errors.items ? <p className="text-xs text-red-700">{errors.items}</p> : null}
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
              <div className="grid grid-cols-1 gap-3 md:grid-cols-2">
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
  )
}
