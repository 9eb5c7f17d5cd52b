// Astro's log of the site (astro.config.mjs, logger), with its page lines written in batches.
// A build logs each page it writes or reuses in two parts, "├─ /business/x/index.html" then
// " (cached)" or its render time (a page kept in place in one, the whole line): at 10,000
// businesses, 27,000 writes to the terminal or the rebuild's pipe, each with a time stamp
// formatted anew, which took 0.12 s of a 3.5 s rebuild. Those parts are kept here as they come and written together (without the time stamp) before any
// other message, every 64 KB, at most 100 ms after they come, and when the process ends; every
// other message goes to Astro's own terminal log as it is, on a line of its own (a page renders
// while others are logged: its name may wait for its end, and a message after the name alone would
// read as part of it, and a rebuild's log would take it for a page line). (Astro imports a logger as it is,
// without Vite: Node runs this file, as it runs the catalog reader.)
import { stripVTControlCharacters } from 'node:util'
import type { AstroLoggerDestination, AstroLoggerMessage } from 'astro'
import astroLog from 'astro/logger/node'
import { processSlot } from '@roland/scripts/process-slot'

const batchBytes = 64 * 1024
const batchMs = 100

/**
 * Whether an event is part of a page line: its name (a tree mark, no line end), or its end (reused
 * from the last build, or the time it took to render), which may come after other pages' parts.
 */
export function isPagePart(event: AstroLoggerMessage): boolean {
  if (event.level !== 'info') return false
  if (event.label === null) {
    const text = stripVTControlCharacters(event.message)
    // A page's name, or (a page kept as it was, Astro's patched generate.js) its whole line.
    return /^\s*[├└]─ /.test(text) && (!event.newLine || /\((?:cached|restored)\)$/.test(text))
  }
  return (
    event.label === 'SKIP_FORMAT' &&
    /^ \((?:cached|restored|\+[\d.]+m?s)\)/.test(stripVTControlCharacters(event.message))
  )
}

/**
 * The log: `write` takes Astro's events. `out` takes the page lines' text (standard output, by
 * default); `terminal` every other event (Astro's log of the terminal).
 */
export function siteLog({ terminal, out }: { terminal: AstroLoggerDestination; out: (text: string) => void }) {
  let batch = ''
  let timer: NodeJS.Timeout | null = null
  // Whether what was written last left its line open (a page's name, its end still to come).
  let lineOpen = false
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (batch === '') return
    const text = batch
    batch = ''
    lineOpen = !text.endsWith('\n')
    out(text)
  }
  return {
    write(event: AstroLoggerMessage) {
      if (isPagePart(event)) {
        batch += event.message + (event.newLine ? '\n' : '')
        if (batch.length >= batchBytes) flush()
        else timer ??= setTimeout(flush, batchMs).unref()
        return
      }
      flush()
      if (lineOpen) out('\n')
      lineOpen = false
      terminal.write(event)
    },
    flush,
  }
}

/**
 * The logs of this process, each written out when the process ends: one slot and one listener for
 * the process, which may build again (build-server.ts), and whose prerender bundle has a copy of
 * this module of its own.
 */
const logsSlot = processSlot<Set<{ flush: () => void }>>('roland.site.logs')

/** Astro's entry point (logger.entrypoint): the site's log on the process's terminal. */
export default function siteLogger(config: Parameters<typeof astroLog>[0]) {
  const log = siteLog({ terminal: astroLog(config), out: (text) => process.stdout.write(text) })
  const logs = logsSlot.kept(() => {
    const made = new Set<{ flush: () => void }>()
    process.once('exit', () => {
      for (const each of made) each.flush()
    })
    return made
  })
  logs.add(log)
  return log
}
