import { describe, expect, test } from 'vitest'
import { recordedJobChangedData } from './jobs.ts'

describe('recordedJobChangedData', () => {
  test('a migration that added, updated or deactivated businesses changed data', () => {
    const migrate = (summary: object) => ({
      kind: 'migrate' as const,
      status: 'succeeded' as const,
      result: { summary },
    })
    expect(recordedJobChangedData(migrate({ added: 1, updated: 0, unchanged: 3, deactivated: 0 }))).toBe(true)
    expect(recordedJobChangedData(migrate({ added: 0, updated: 0, unchanged: 3, deactivated: 1 }))).toBe(true)
    expect(recordedJobChangedData(migrate({ added: 0, updated: 0, unchanged: 4, deactivated: 0 }))).toBe(false)
  })

  test('a crawl changed data when it stored a new image, one business or many', () => {
    const crawl = (stored: unknown) => ({ kind: 'crawl' as const, status: 'succeeded' as const, result: { stored } })
    expect(recordedJobChangedData(crawl([{ created: false }, { created: true }]))).toBe(true)
    expect(recordedJobChangedData(crawl([{ created: false }]))).toBe(false)
    expect(recordedJobChangedData(crawl(3))).toBe(true)
    expect(recordedJobChangedData(crawl(0))).toBe(false)
  })

  test('an image job changed data when it generated an image', () => {
    const images = (generated: number) => ({
      kind: 'images' as const,
      status: 'succeeded' as const,
      result: { summary: { generated } },
    })
    expect(recordedJobChangedData(images(2))).toBe(true)
    expect(recordedJobChangedData(images(0))).toBe(false)
  })

  test('an optimize job changed data when it gave photos their derivatives', () => {
    const optimize = (optimized: number) => ({
      kind: 'images' as const,
      status: 'succeeded' as const,
      result: { summary: { optimized, unchanged: 2, skipped: 1, failed: 0 } },
    })
    expect(recordedJobChangedData(optimize(1))).toBe(true)
    expect(recordedJobChangedData(optimize(0))).toBe(false)
  })

  test('failed jobs and rebuilds never call for a rebuild', () => {
    expect(recordedJobChangedData({ kind: 'migrate', status: 'failed', result: null })).toBe(false)
    expect(recordedJobChangedData({ kind: 'rebuild', status: 'succeeded', result: { mode: 'hook' } })).toBe(false)
  })
})
