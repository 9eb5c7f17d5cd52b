import { useEffect, useRef, useState } from 'react'
import Icon from '../components/Icon.tsx'
import { isCurrent, type NavItem } from '../lib/navigation.ts'

interface Props {
  items: NavItem[]
  pathname: string
}

/**
 * The navigation on small screens (SPEC §2). It is a <details> element, so the HTML alone opens
 * and closes it without JavaScript; once hydrated, choosing a link or pressing Escape closes it.
 */
export default function MobileMenu({ items, pathname }: Props) {
  const [open, setOpen] = useState(false)
  const details = useRef<HTMLDetailsElement>(null)

  // Marks the menu as interactive, for tests and for styles that need to know.
  useEffect(() => {
    details.current?.setAttribute('data-hydrated', '')
  }, [])

  useEffect(() => {
    if (!open) return
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return
      setOpen(false)
      details.current?.querySelector('summary')?.focus()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])

  const close = () => setOpen(false)
  const link = (label: string, href: string, className: string) => (
    <a href={href} className={className} aria-current={isCurrent(href, pathname) ? 'page' : undefined} onClick={close}>
      {label}
    </a>
  )

  return (
    <details
      ref={details}
      className="group lg:hidden"
      open={open}
      onToggle={(event) => setOpen(event.currentTarget.open)}
      data-mobile-menu=""
    >
      <summary className="flex cursor-pointer items-center gap-2 rounded-lg border border-stone-300 px-3 py-2 text-sm font-semibold text-stone-800 hover:bg-stone-100">
        <Icon name="menu" className="size-5 group-open:hidden" />
        <Icon name="close" className="hidden size-5 group-open:block" />
        Menu
      </summary>
      <nav
        aria-label="Main menu"
        className="absolute inset-x-0 top-full max-h-[calc(100dvh-4rem)] overflow-y-auto border-b border-stone-200 bg-white px-4 pb-6 shadow-lg"
      >
        <ul className="mx-auto max-w-7xl divide-y divide-stone-100">
          {items.map((item) => (
            <li key={item.href} className="py-3">
              {item.children ? (
                <>
                  <p className="mb-1 text-xs font-bold tracking-wide text-stone-500 uppercase">{item.label}</p>
                  <ul className="grid gap-1 sm:grid-cols-2">
                    {item.children.map((child) => (
                      <li key={child.href}>
                        {link(child.label, child.href, 'block rounded-md px-2 py-2 font-medium text-stone-800 hover:bg-forest-50 aria-[current=page]:text-forest-700')}
                      </li>
                    ))}
                  </ul>
                </>
              ) : (
                link(item.label, item.href, 'block rounded-md px-2 py-2 font-semibold text-stone-900 hover:bg-forest-50 aria-[current=page]:text-forest-700')
              )}
            </li>
          ))}
        </ul>
      </nav>
    </details>
  )
}
