import type {
  Dispatch,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  SetStateAction,
  TextareaHTMLAttributes,
} from 'react'

// The labelled form controls of every screen: each label tied to its control, a hint and the error
// under it, the error tied to the control (aria-describedby) so a screen reader reads it with the field.

// A control takes its cell's width and no more: a datetime-local field's own width is wider than a
// phone's form (it pushed the new-event form to 449 px at 390).
const controlClass = (error: string | null | undefined) =>
  `w-full min-w-0 rounded-md border px-3 py-2 text-sm shadow-xs focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none ${error ? 'border-red-500' : 'border-slate-300'}`

// Before the control's own props, so a screen may still set them itself.
const errorTie = (id: string | undefined, error: string | null | undefined) => ({
  'aria-invalid': error ? true : undefined,
  'aria-describedby': error ? `${id}-error` : undefined,
})

function Labelled({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string | undefined
  label: string
  error?: string | null | undefined
  hint?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {children}
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
      {error ? (
        <p id={`${id}-error`} className="text-xs text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** A labelled text input with an optional error under it; its id is `id`, else `name`. */
export function Field({
  label,
  error,
  hint,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { label: string; error?: string | null; hint?: ReactNode }) {
  const id = props.id ?? props.name
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <input id={id} {...errorTie(id, error)} {...props} className={controlClass(error)} />
    </Labelled>
  )
}

/** A labelled multi-line text input. */
export function TextArea({
  label,
  error,
  hint,
  id,
  rows = 3,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  id: string
  label: string
  error?: string | null
  hint?: ReactNode
}) {
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <textarea id={id} rows={rows} {...errorTie(id, error)} {...props} className={controlClass(error)} />
    </Labelled>
  )
}

/** A labelled choice among options. */
export function Select({
  label,
  error,
  id,
  options,
  ...props
}: SelectHTMLAttributes<HTMLSelectElement> & {
  id: string
  label: string
  error?: string | null
  options: readonly string[]
}) {
  return (
    <Labelled id={id} label={label} error={error}>
      <select id={id} {...errorTie(id, error)} {...props} className={controlClass(error)}>
        {options.map((option) => (
          <option key={option} value={option}>
            {option}
          </option>
        ))}
      </select>
    </Labelled>
  )
}

/** A labelled checkbox. */
export function Checkbox({
  label,
  id,
  ...props
}: InputHTMLAttributes<HTMLInputElement> & { id: string; label: string }) {
  return (
    <label htmlFor={id} className="flex items-center gap-2 text-sm font-medium text-slate-800">
      <input id={id} type="checkbox" {...props} className="h-4 w-4" />
      {label}
    </label>
  )
}

/** What an editor's form edits: text as typed, and switches. */
export type FormDraft = Record<string, string | boolean>

/** A row as its form's draft, for each key of the empty draft: none (null) as blank, numbers as text. */
export function draftOfRow<D extends FormDraft>(row: object, empty: D): D {
  const columns: Record<string, unknown> = { ...row }
  const draft: FormDraft = {}
  for (const [key, blank] of Object.entries(empty)) {
    const value = columns[key]
    if (typeof blank === 'boolean') draft[key] = value === true
    else draft[key] = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : ''
  }
  // Every key of the empty draft is set, each to the type of its blank.
  return draft as D
}

type KeyOf<D, Value> = { [K in keyof D]: D[K] extends Value ? K : never }[keyof D] & string

/** A switch of an editor's form: its draft key, the end of its id (the key by default), its label. */
export interface CheckboxDef<D> {
  key: KeyOf<D, boolean>
  id?: string
  label: string
}

/**
 * One field of an editor's form, declared once: the draft key it edits (its errors come under the
 * same name, the column's), the end of its id (the key by default), its label and how it is typed.
 * A text area takes the form's whole width; `checkboxes` stacks switches in one cell.
 */
export type FieldDef<D> =
  | { kind: 'text'; key: KeyOf<D, string>; id?: string; label: string; type?: 'datetime-local'; hint?: string }
  | {
      kind: 'select'
      key: KeyOf<D, string>
      id?: string
      label: string
      options: readonly string[] | ((draft: D) => readonly string[])
    }
  | { kind: 'textarea'; key: KeyOf<D, string>; id?: string; label: string; rows?: number; hint?: string }
  | ({ kind: 'checkbox' } & CheckboxDef<D>)
  | { kind: 'checkboxes'; boxes: CheckboxDef<D>[] }

/** Renders an editor's fields from their definitions, each with its error; ids are `{prefix}-{id}`. */
export function FormFields<D extends FormDraft>({
  prefix,
  fields,
  draft,
  setDraft,
  errors,
}: {
  prefix: string
  fields: readonly FieldDef<D>[]
  draft: D
  setDraft: Dispatch<SetStateAction<D>>
  errors: Record<string, string>
}) {
  const idOf = (def: { key: string; id?: string }) => `${prefix}-${def.id ?? def.key}`
  const set = (key: keyof D, value: string | boolean) => setDraft((d) => ({ ...d, [key]: value }))
  // What every control typed as text takes: its id and label, its value, and its error.
  const textProps = (def: { key: KeyOf<D, string>; id?: string; label: string }) => ({
    id: idOf(def),
    label: def.label,
    value: String(draft[def.key]),
    onChange: (event: { target: { value: string } }) => set(def.key, event.target.value),
    error: errors[def.key],
  })
  const checkbox = (box: CheckboxDef<D>) => (
    <Checkbox
      key={box.key}
      id={idOf(box)}
      label={box.label}
      checked={draft[box.key] === true}
      onChange={(event) => set(box.key, event.target.checked)}
    />
  )
  return fields.map((def) => {
    switch (def.kind) {
      case 'text':
        return <Field key={def.key} type={def.type} hint={def.hint} {...textProps(def)} />
      case 'select':
        return (
          <Select
            key={def.key}
            options={typeof def.options === 'function' ? def.options(draft) : def.options}
            {...textProps(def)}
          />
        )
      case 'textarea':
        return (
          <div key={def.key} className="md:col-span-2">
            <TextArea rows={def.rows} hint={def.hint} {...textProps(def)} />
          </div>
        )
      case 'checkbox':
        return checkbox(def)
      case 'checkboxes':
        return (
          <div key={def.boxes.map((box) => box.key).join()} className="flex flex-col justify-end gap-2">
            {def.boxes.map(checkbox)}
          </div>
        )
    }
  })
}
