import { expect, inject, test } from 'vitest'
import { checkBuiltSite, formatHtmlError } from '../support/html-checker.ts'

// Issue 30: every page of the built fixture site is valid HTML, as the W3C Nu HTML checker
// (vnu-jar) says; lhci.ts checks the photo site the same way before Lighthouse measures it.

test('every built page passes the Nu HTML checker without an error', { timeout: 300_000 }, async () => {
  const errors = await checkBuiltSite(inject('siteDir'))
  expect(errors.map(formatHtmlError)).toEqual([])
})
