import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import type { Job } from '@roland/scripts/store/types'
import { CheckSchedule, parseCheckEvery } from './check-schedule.ts'

const day = 86_400_000

describe('parseCheckEvery', () => {
  test('is weekly by default, and reads minutes, hours, days and weeks', () => {
    expect(parseCheckEvery(undefined)).toBe(7 * day)
    expect(parseCheckEvery('')).toBe(7 * day)
    expect(parseCheckEvery('30m')).toBe(30 * 60_000)
    expect(parseCheckEvery('12h')).toBe(12 * 3_600_000)
    expect(parseCheckEvery('3d')).toBe(3 * day)
    expect(parseCheckEvery('2w')).toBe(14 * day)
  })

  test('is off with "off" or 0', () => {
    expect(parseCheckEvery('off')).toBeNull()
    expect(parseCheckEvery('0')).toBeNull()
  })

  test('refuses anything else, saying what it takes', () => {
    expect(() => parseCheckEvery('weekly')).toThrow(
      /ROLAND_CHECK_EVERY must be a number and a unit \(30m, 12h, 7d, 2w\) or off/,
    )
    expect(() => parseCheckEvery('0d')).toThrow(/ROLAND_CHECK_EVERY/)
  })
})

describe('CheckSchedule', () => {
  const start = Date.parse('2026-11-26T12:00:00Z')
  let schedule: CheckSchedule | undefined

  beforeEach(() => {
    vi.useFakeTimers({ now: start })
  })

  afterEach(() => {
    schedule?.close()
    vi.useRealTimers()
  })

  const finishedAgo = (ms: number) => ({ finished_at: new Date(start - ms).toISOString(), created_at: '' }) as Job

  test('runs one interval after the last check finished, then again an interval later', async () => {
    const run = vi.fn(async () => {})
    let last: Job | null = finishedAgo(6 * day)
    schedule = new CheckSchedule({
      everyMs: 7 * day,
      lastCheck: async () => last,
      run: async () => {
        await run()
        last = { finished_at: new Date(Date.now()).toISOString(), created_at: '' } as Job
      },
    })
    await schedule.start()
    expect(schedule.nextAt).toBe(start + day)
    await vi.advanceTimersByTimeAsync(day - 1000)
    expect(run).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1000)
    expect(run).toHaveBeenCalledTimes(1)
    expect(schedule.nextAt).toBe(start + day + 7 * day)
  })

  test('a console that starts long after the last check runs one soon, not at once', async () => {
    const run = vi.fn(async () => {})
    schedule = new CheckSchedule({ everyMs: 7 * day, lastCheck: async () => null, run, startDelayMs: 60_000 })
    await schedule.start()
    expect(schedule.nextAt).toBe(start + 60_000)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(run).toHaveBeenCalledTimes(1)
  })

  test('never runs when checks are off', async () => {
    const run = vi.fn(async () => {})
    schedule = new CheckSchedule({ everyMs: null, lastCheck: async () => null, run })
    await schedule.start()
    expect(schedule.nextAt).toBeNull()
    await vi.advanceTimersByTimeAsync(30 * day)
    expect(run).not.toHaveBeenCalled()
  })
})
