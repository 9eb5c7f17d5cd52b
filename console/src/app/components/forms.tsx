import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react'

// Form controls of the editors, labelled and with their error under them, like ui.tsx's Field.

const controlClass = (error: string | null | undefined) =>
  `rounded-md border px-3 py-2 text-sm shadow-xs focus:border-brand-600 focus:ring-1 focus:ring-brand-600 focus:outline-none ${error ? 'border-red-500' : 'border-slate-300'}`

function Labelled({
  id,
  label,
  error,
  hint,
  children,
}: {
  id: string
  label: string
  error?: string | null | undefined
  hint?: ReactNode
  children: ReactNode
}) {
  return (
    <div className="flex flex-col gap-1.5">
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

/** A labelled multi-line text input. */
export function TextArea({
  label,
  error,
  hint,
  id,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  id: string
  label: string
  error?: string | null
  hint?: ReactNode
}) {
  return (
    <Labelled id={id} label={label} error={error} hint={hint}>
      <textarea
        id={id}
        rows={3}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...props}
        className={controlClass(error)}
      />
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
      <select
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        {...props}
        className={controlClass(error)}
      >
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
