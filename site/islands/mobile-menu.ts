/**
 * What the mobile menu does beyond the <details> element (SPEC §2): it closes when a link is
 * chosen and on Escape, which gives the focus back to its toggle. Its <details> is hidden on wide screens, so there it never acts.
 */
export function enhance(details: HTMLDetailsElement): void {
  details.addEventListener('click', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) details.open = false
  })
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || !details.open) return
    details.open = false
    details.querySelector('summary')?.focus()
  })
  // Marks the menu as interactive, for tests and for styles that need to know.
  details.setAttribute('data-hydrated', '')
}
