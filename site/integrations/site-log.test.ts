import { describe, expect, test } from 'vitest'
import { isPagePart, siteLog } from './site-log.ts'

type LogEvent = Parameters<typeof isPagePart>[0]

const info = (label: string | null, message: string, newLine = true): LogEvent => ({
  level: 'info',
  label,
  message,
  newLine,
})

/** A log whose terminal and page output are kept in order, as one transcript. */
function transcript() {
  const lines: string[] = []
  const log = siteLog({
    terminal: {
      write: (event: LogEvent) => {
        lines.push(`[${event.label}] ${event.message}`)
        return true
      },
    },
    out: (text: string) => lines.push(text),
  })
  return { log, lines }
}

describe('the site log', () => {
  test('tells page parts from other messages, colours and all', () => {
    expect(isPagePart(info(null, '  \u001b[32m├─\u001b[39m \u001b[2m/business/a/index.html\u001b[22m', false))).toBe(
      true,
    )
    expect(isPagePart(info('SKIP_FORMAT', ' \u001b[32m(cached)\u001b[39m'))).toBe(true)
    expect(isPagePart(info('SKIP_FORMAT', ' (restored)'))).toBe(true)
    expect(isPagePart(info('SKIP_FORMAT', ' \u001b[2m(+12ms)\u001b[22m '))).toBe(true)
    expect(isPagePart(info('SKIP_FORMAT', ' (+1.20s) '))).toBe(true)
    // A page kept as it was: its whole line.
    expect(
      isPagePart(info(null, '  \u001b[32m├─\u001b[39m \u001b[2m/a/index.html\u001b[22m \u001b[32m(cached)\u001b[39m')),
    ).toBe(true)
    // Not a page's: a whole line with no label and no end, a banner, a labelled message, a warning.
    expect(isPagePart(info(null, '  ├─ /a/index.html'))).toBe(false)
    expect(isPagePart(info('SKIP_FORMAT', '\n generating static routes '))).toBe(false)
    expect(isPagePart(info('build', '├─ /a/index.html', false))).toBe(false)
    expect(isPagePart({ ...info(null, '  ├─ /a/index.html', false), level: 'warn' })).toBe(false)
  })

  test('writes the page lines together, before the next message, in the order they came', () => {
    const { log, lines } = transcript()
    log.write(info('build', 'Collecting build info...'))
    log.write(info(null, '  ├─ /a/index.html', false))
    log.write(info('SKIP_FORMAT', ' (cached)'))
    log.write(info(null, '  ├─ /b/index.html', false))
    // Another page's line lands before /b's end, as when pages render at once.
    log.write(info(null, '  ├─ /c/index.html', false))
    log.write(info('SKIP_FORMAT', ' (cached)'))
    log.write(info('SKIP_FORMAT', ' (+12ms) '))
    // A page kept as it was, in one line.
    log.write(info(null, '  ├─ /d/index.html (cached)'))
    expect(lines).toEqual(['[build] Collecting build info...'])
    log.write(info('SKIP_FORMAT', '✓ Completed in 709ms.'))
    expect(lines).toEqual([
      '[build] Collecting build info...',
      '  ├─ /a/index.html (cached)\n  ├─ /b/index.html  ├─ /c/index.html (cached)\n (+12ms) \n  ├─ /d/index.html (cached)\n',
      '[SKIP_FORMAT] ✓ Completed in 709ms.',
    ])
  })

  test('starts the next message on a line of its own when a page name waits for its end', () => {
    const { log, lines } = transcript()
    log.write(info(null, '  ├─ /a/index.html', false))
    log.write(info('roland:catalog', 'rendering every page on one thread'))
    log.write(info('SKIP_FORMAT', ' (+12ms) '))
    log.write(info('build', 'Complete!'))
    expect(lines).toEqual([
      '  ├─ /a/index.html',
      '\n',
      '[roland:catalog] rendering every page on one thread',
      ' (+12ms) \n',
      '[build] Complete!',
    ])
  })

  test('writes what it holds when told to (at the end of the process) and soon after it comes', async () => {
    const { log, lines } = transcript()
    log.write(info(null, '  ├─ /a/index.html', false))
    log.write(info('SKIP_FORMAT', ' (cached)'))
    log.flush()
    expect(lines).toEqual(['  ├─ /a/index.html (cached)\n'])
    log.write(info(null, '  ├─ /b/index.html', false))
    log.write(info('SKIP_FORMAT', ' (cached)'))
    await expect.poll(() => lines.length).toBe(2)
    expect(lines[1]).toBe('  ├─ /b/index.html (cached)\n')
  })

  test('writes a long run of pages in batches of 64 KB', () => {
    const { log, lines } = transcript()
    for (let i = 0; i < 2000; i++) {
      log.write(info(null, `  ├─ /business/business-number-${i}/index.html`, false))
      log.write(info('SKIP_FORMAT', ' (cached)'))
    }
    expect(lines.length).toBeGreaterThan(0)
    expect(lines.every((text) => text.length >= 64 * 1024)).toBe(true)
    log.flush()
    expect(lines.join('').split('\n').filter(Boolean)).toHaveLength(2000)
  })
})
