import { expect, test } from 'vitest'
import { lineSplitter } from './build-child.ts'

test("splits a build's output into lines, a character cut between two chunks put back together", () => {
  const lines: string[] = []
  const split = lineSplitter((line) => lines.push(line))
  const text = Buffer.from('  ├─ /a/index.html (cached)\r\n  └─ /b/index.html (cached)\nlast')
  // Cut inside the three bytes of "├", and again inside "└".
  const first = text.indexOf(Buffer.from('├')) + 1
  const second = text.indexOf(Buffer.from('└')) + 2
  split.push(text.subarray(0, first))
  split.push(text.subarray(first, second))
  split.push(text.subarray(second))
  expect(lines).toEqual(['  ├─ /a/index.html (cached)', '  └─ /b/index.html (cached)'])
  split.end()
  expect(lines).toEqual(['  ├─ /a/index.html (cached)', '  └─ /b/index.html (cached)', 'last'])
})
