import type { Page } from 'playwright-core'
import { onTestFinished } from 'vitest'

/** One thing a layout shift moved: when, what, whether in the header, and from where to where. */
export interface LayoutShift {
  /** When the shift happened, in ms since the page's navigation began. */
  at: number
  /** The element, as `<tag class="…">`, and its box before and after. */
  moved: string
  inHeader: boolean
}

/**
 * Records the layout shifts of every page the page opens from now on, until the test ends, each
 * thing moved on its own (read them with layoutShifts). Call it before the page navigates.
 */
export async function recordLayoutShifts(page: Page): Promise<void> {
  const recorder = await page.addInitScript(() => {
    const shifts: LayoutShift[] = ((window as unknown as { layoutShifts: LayoutShift[] }).layoutShifts = [])
    const describe = (node: Node | null) =>
      node instanceof Element ? `<${node.localName} class="${node.getAttribute('class') ?? ''}">` : `${node?.nodeName}`
    const box = (r: DOMRectReadOnly) => `${r.x},${r.y} ${r.width}×${r.height}`
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const { sources } = entry as unknown as {
          sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[]
        }
        for (const { node, previousRect, currentRect } of sources)
          shifts.push({
            at: entry.startTime,
            moved: `${describe(node)} ${box(previousRect)} → ${box(currentRect)}`,
            inHeader: node instanceof Element && node.closest('header') !== null,
          })
      }
    }).observe({ type: 'layout-shift', buffered: true })
  })
  // The page may go on to the next test (useSite reuses pages): it should not record there.
  onTestFinished(async () => {
    if (!page.isClosed()) await recorder.dispose()
  })
}

/** The layout shifts recorded on the page's current document. */
export function layoutShifts(page: Page): Promise<{ shifts: LayoutShift[] }> {
  return page.evaluate(() => ({
    shifts: (window as unknown as { layoutShifts: LayoutShift[] }).layoutShifts,
  }))
}
