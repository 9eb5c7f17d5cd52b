import type { Page } from 'playwright-core'

/**
 * Describes, a line each, what sticks out of a `width` (CSS px) wide screen sideways: every shown
 * element whose box runs past the left or right edge, and every element that scrolls sideways (its
 * content wider than itself). Only the outermost of a nest of offenders is named (its children
 * stick out with it); an empty list means the page fits. Text fields are left out of the scrolling
 * check: their typed text scrolls inside them by design. The width is given, not read from the
 * window: a phone (Chromium's mobile emulation) zooms out to show a page wider than itself, and its
 * window.innerWidth grows to the page's width.
 */
export function sideways(page: Page, width: number): Promise<string[]> {
  return page.evaluate((width) => {
    const describe = (element: Element) => {
      const tag = element.tagName.toLowerCase()
      const id = element.id ? `#${element.id}` : ''
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `<${tag}${id}>${text ? ` "${text}"` : ''}`
    }
    const shown = (element: Element) => {
      const style = getComputedStyle(element)
      const box = element.getBoundingClientRect()
      return style.visibility !== 'hidden' && (box.width > 0 || box.height > 0)
    }
    const offences = new Map<Element, string>()
    for (const element of document.body.querySelectorAll('*')) {
      if (!shown(element)) continue
      const box = element.getBoundingClientRect()
      // Half a pixel of leeway: boxes have fractional edges at a device scale of 2.
      if (box.right > width + 0.5 || box.left < -0.5) {
        offences.set(element, `${describe(element)} spans ${Math.round(box.left)}–${Math.round(box.right)} px`)
        continue
      }
      const overflowX = getComputedStyle(element).overflowX
      const scrolls = overflowX === 'auto' || overflowX === 'scroll'
      const typed = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement
      if (scrolls && !typed && element.scrollWidth > element.clientWidth + 1) {
        offences.set(
          element,
          `${describe(element)} scrolls sideways: ${element.scrollWidth} px in ${element.clientWidth}`,
        )
      }
    }
    const outermost = [...offences].filter(([element]) => {
      for (let up = element.parentElement; up; up = up.parentElement) if (offences.has(up)) return false
      return true
    })
    const page = document.documentElement
    const lines = outermost.map(([, line]) => line)
    if (page.scrollWidth > width) lines.unshift(`the page is ${page.scrollWidth} px wide`)
    return lines
  }, width)
}
