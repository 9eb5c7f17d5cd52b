import { expect, test } from 'vitest'
import { readConsoleConfig } from './config.ts'

test("keeps the next rebuild's process waiting unless ROLAND_REBUILD_STANDBY is off, and refuses any other value", () => {
  expect(readConsoleConfig({}).rebuildStandby).toBe(true)
  expect(readConsoleConfig({ ROLAND_REBUILD_STANDBY: '' }).rebuildStandby).toBe(true)
  expect(readConsoleConfig({ ROLAND_REBUILD_STANDBY: 'on' }).rebuildStandby).toBe(true)
  expect(readConsoleConfig({ ROLAND_REBUILD_STANDBY: 'off' }).rebuildStandby).toBe(false)
  expect(() => readConsoleConfig({ ROLAND_REBUILD_STANDBY: 'no' })).toThrow(/ROLAND_REBUILD_STANDBY must be on or off/)
})
