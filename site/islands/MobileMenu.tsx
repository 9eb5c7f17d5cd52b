import { useEffect, useRef, type ReactNode } from 'react'
import Icon from '../components/Icon.tsx'

interface Props {
  /** The menu's links, rendered by the page (SiteHeader.astro): static HTML the island never re-renders. */
  children?: ReactNode
}

/**
 * The navigation on small screens (SPEC §2): a <details>, so the HTML alone opens and closes it,
 * rendered at build time. The island hydrates when the visitor first opens it (client:open, see
 * integrations/open-directive.ts), so a page nobody opens the menu on loads no React; from then on
 * it closes when a link is chosen, and on Escape, which gives the focus back to its toggle. It is
 * hidden on wide screens, so there it never acts. Its links come as children, so the page carries
 * them once, as HTML, rather than again as the island's props.
 */
export default function MobileMenu({ children }: Props) {
  const details = useRef<HTMLDetailsElement>(null)
  const toggle = useRef<HTMLElement>(null)

  useEffect(() => {
    const menu = details.current!
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || !menu.open) return
      menu.open = false
      toggle.current?.focus()
    }
    // A link chosen with the keyboard is clicked too, so one click listener serves both.
    const closeOnLink = (event: MouseEvent) => {
      if (event.target instanceof Element && event.target.closest('a')) menu.open = false
    }
    document.addEventListener('keydown', onKeyDown)
    menu.addEventListener('click', closeOnLink)
    // Marks the menu as interactive, for tests and for styles that need to know.
    menu.dataset.hydrated = ''
    return () => {
      document.removeEventListener('keydown', onKeyDown)
      menu.removeEventListener('click', closeOnLink)
    }
  }, [])

  return (
    // The island hydrates because the visitor opened the menu, so the <details> React hydrates
    // always carries an `open` its render does not (nor can: the server cannot know it). React
    // leaves attributes it does not own alone; this tells it the difference is meant, which its
    // development build would otherwise report as a hydration mismatch.
    <details ref={details} className="group lg:hidden" data-mobile-menu="" suppressHydrationWarning>
      <summary
        ref={toggle}
        className="flex cursor-pointer items-center gap-2 rounded-lg border border-stone-300 px-3 py-2 text-sm font-semibold text-stone-800 hover:bg-stone-100"
      >
        <Icon name="menu" className="size-5 group-open:hidden" />
        <Icon name="close" className="hidden size-5 group-open:block" />
        Menu
      </summary>
      {children}
    </details>
  )
}
