import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react'

// SPEC §8: toasts titled Error (destructive) or Success, shown for 3 s.

/** How long a toast stays (SPEC §9: 3000 ms). */
export const toastDurationMs = 3000

interface Toast {
  id: number
  title: 'Error' | 'Success'
  description: string
  variant: 'destructive' | 'default'
}

interface ToastApi {
  /** Shows a red 'Error' toast. */
  error(description: string): void
  /** Shows a 'Success' toast. */
  success(description: string): void
}

const ToastContext = createContext<ToastApi | null>(null)
let nextId = 1

/** Shows toasts for every screen. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([])
  const push = useCallback((toast: Omit<Toast, 'id'>) => {
    const id = nextId++
    setToasts((current) => [...current, { ...toast, id }])
  }, [])
  const dismiss = useCallback((id: number) => setToasts((current) => current.filter((toast) => toast.id !== id)), [])
  const api = useMemo<ToastApi>(
    () => ({
      error: (description) => push({ title: 'Error', description, variant: 'destructive' }),
      success: (description) => push({ title: 'Success', description, variant: 'default' }),
    }),
    [push],
  )
  return (
    <ToastContext.Provider value={api}>
      {children}
      {/* A landmark of its own, so a toast is never content outside one; on a phone it spans the
          width less a margin each side (a full width pushed right would start off the screen). */}
      <section
        aria-label="Notifications"
        className="pointer-events-none fixed right-4 bottom-4 left-4 z-50 sm:left-auto sm:w-full sm:max-w-sm"
      >
        <ol className="flex flex-col gap-2">
          {toasts.map((toast) => (
            <ToastItem key={toast.id} toast={toast} onDone={dismiss} />
          ))}
        </ol>
      </section>
    </ToastContext.Provider>
  )
}

function ToastItem({ toast, onDone }: { toast: Toast; onDone: (id: number) => void }) {
  useEffect(() => {
    const timer = setTimeout(() => onDone(toast.id), toastDurationMs)
    return () => clearTimeout(timer)
  }, [toast.id, onDone])
  const destructive = toast.variant === 'destructive'
  return (
    <li
      data-variant={toast.variant}
      className={`pointer-events-auto rounded-lg border p-4 shadow-lg ${
        destructive ? 'border-red-700 bg-red-600 text-white' : 'border-slate-200 bg-white text-slate-900'
      }`}
    >
      {/* The role sits inside the item: on the <li> it would replace the list item's own role. */}
      <div role={destructive ? 'alert' : 'status'} className="flex items-start justify-between gap-3">
        <div>
          <p className="text-sm font-semibold">{toast.title}</p>
          <p className={`mt-1 text-sm ${destructive ? 'text-red-50' : 'text-slate-600'}`}>{toast.description}</p>
        </div>
        <button
          type="button"
          onClick={() => onDone(toast.id)}
          className={`rounded px-1 text-sm ${destructive ? 'text-red-100 hover:text-white' : 'text-slate-500 hover:text-slate-700'}`}
          aria-label="Dismiss"
        >
          ×
        </button>
      </div>
    </li>
  )
}

/** The toasts of the console. */
export function useToast(): ToastApi {
  const value = useContext(ToastContext)
  if (!value) throw new Error('useToast must be used inside ToastProvider')
  return value
}
