import { useState, type ButtonHTMLAttributes, type ReactNode } from 'react'

// The few building blocks every screen uses: cards, buttons, badges, a progress bar, alerts (form
// controls are in forms.tsx).

/** A white panel with an optional title and description. */
export function Card({
  title,
  description,
  children,
  className = '',
}: {
  title?: ReactNode
  description?: ReactNode
  children?: ReactNode
  className?: string
}) {
  return (
    <section className={`rounded-xl border border-slate-200 bg-white p-5 shadow-sm ${className}`}>
      {title ? <h2 className="text-lg font-semibold tracking-tight">{title}</h2> : null}
      {description ? <p className="mt-1 text-sm text-slate-600">{description}</p> : null}
      {children ? <div className={title || description ? 'mt-4' : ''}>{children}</div> : null}
    </section>
  )
}

const buttonStyles = {
  primary: 'bg-brand-600 text-white hover:bg-brand-700 disabled:bg-slate-300 disabled:text-slate-600',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 disabled:text-slate-500',
  danger: 'border border-red-300 bg-white text-red-700 hover:bg-red-50 disabled:text-slate-500',
} as const

/** A button in one of three looks. */
export function Button({
  variant = 'primary',
  className = '',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: keyof typeof buttonStyles }) {
  return (
    <button
      type="button"
      {...props}
      className={`inline-flex items-center justify-center gap-2 rounded-md px-4 py-2 text-sm font-medium transition-colors focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2 focus-visible:outline-none disabled:cursor-not-allowed ${buttonStyles[variant]} ${className}`}
    />
  )
}

const badgeStyles = {
  success: 'bg-green-100 text-green-800 border-green-200',
  error: 'bg-red-100 text-red-800 border-red-200',
  pending: 'bg-amber-100 text-amber-900 border-amber-200',
  neutral: 'bg-slate-100 text-slate-700 border-slate-200',
  info: 'bg-sky-100 text-sky-800 border-sky-200',
} as const

/** A small coloured label. */
export function Badge({ tone = 'neutral', children }: { tone?: keyof typeof badgeStyles; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded-full border px-2.5 py-0.5 text-xs font-semibold ${badgeStyles[tone]}`}
    >
      {children}
    </span>
  )
}

/** A progress bar (SPEC §9: max 100). */
export function Progress({ value, label }: { value: number; label: string }) {
  const clamped = Math.max(0, Math.min(100, Math.round(value)))
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={clamped}
      className="h-2.5 w-full overflow-hidden rounded-full bg-slate-200"
    >
      <div
        className="h-full rounded-full bg-brand-600 transition-[width] duration-300"
        style={{ width: `${clamped}%` }}
      />
    </div>
  )
}

/** A message box: a success or a failure. */
export function Alert({
  tone,
  title,
  children,
  testId,
}: {
  tone: 'success' | 'error'
  title: string
  children?: ReactNode
  testId?: string
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      data-testid={testId}
      className={`rounded-lg border p-4 text-sm ${tone === 'error' ? 'border-red-300 bg-red-50 text-red-900' : 'border-green-300 bg-green-50 text-green-900'}`}
    >
      <p className="font-semibold">{title}</p>
      {children ? <div className="mt-1">{children}</div> : null}
    </div>
  )
}

/** An image that shows a placeholder when it cannot load. */
export function SafeImage({ src, alt, className = '' }: { src: string | null; alt: string; className?: string }) {
  const [failedSrc, setFailedSrc] = useState<string | null>(null)
  if (!src || failedSrc === src) {
    return (
      <div
        role="img"
        aria-label={`${alt} (image unavailable)`}
        data-placeholder="true"
        className={`flex items-center justify-center bg-slate-100 text-slate-500 ${className}`}
      >
        <svg
          viewBox="0 0 24 24"
          className="h-8 w-8"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.5"
          aria-hidden="true"
        >
          <rect x="3" y="4" width="18" height="16" rx="2" />
          <circle cx="9" cy="10" r="2" />
          <path d="m21 16-5-5-9 9" />
        </svg>
      </div>
    )
  }
  return (
    <img
      src={src}
      alt={alt}
      loading="lazy"
      onError={() => setFailedSrc(src)}
      className={`bg-slate-100 object-cover ${className}`}
    />
  )
}

/** A job status as a badge. */
export function StatusBadge({ status }: { status: string }) {
  const tone =
    status === 'succeeded'
      ? 'success'
      : status === 'failed' || status === 'interrupted'
        ? 'error'
        : status === 'running'
          ? 'info'
          : 'pending'
  return <Badge tone={tone}>{status}</Badge>
}
