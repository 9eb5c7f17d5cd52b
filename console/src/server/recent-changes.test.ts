import { describe, expect, test } from 'vitest'
import { describeChange, type ChangeGroup } from './recent-changes.ts'

const group = (overrides: Partial<ChangeGroup>): ChangeGroup => ({
  txid: 1,
  at: '2026-11-28T02:00:00Z',
  actor: 'sql:postgres',
  by_role: true,
  setup: false,
  rows: 1,
  tables: ['businesses'],
  main: { table: 'businesses', row_id: 'b1', action: 'update', label: 'Big Rock Coffee' },
  main_rows: 1,
  submission_id: null,
  job: null,
  ...overrides,
})

const importJob = (summary: Record<string, number>, startedBy = 'cli'): ChangeGroup['job'] => ({
  id: 'j1',
  kind: 'migrate',
  params: { source: 'bucket:Roland.txt' },
  result: { summary },
  status: 'succeeded',
  started_by: startedBy,
})

describe('describeChange', () => {
  test('names an import by its file and what it did, never the database role that wrote it', () => {
    const line = describeChange(group({ rows: 292, main_rows: 35, job: importJob({ added: 35 }, 'setup') }))
    expect(line).toMatchObject({
      who: null,
      text: 'Imported Roland.txt: 35 businesses added',
      via: 'by the first setup',
    })
    expect(describeChange(group({ job: importJob({ added: 0, updated: 1, deactivated: 2 }) })).text).toBe(
      'Imported Roland.txt: 1 business updated, 2 deactivated',
    )
  })

  test("names an operator's save by the row it changed, and how many more", () => {
    expect(describeChange(group({ actor: 'ann@example.org', by_role: false })).text).toBe('changed Big Rock Coffee')
    const many = describeChange(group({ actor: 'ann@example.org', by_role: false, main_rows: 3 }))
    expect(many).toMatchObject({ who: 'ann@example.org', text: 'changed Big Rock Coffee and 2 more' })
    const photos = describeChange(
      group({ actor: 'ann@example.org', by_role: false, main: null, tables: ['business_images'], rows: 3 }),
    )
    expect(photos.text).toBe('changed 3 photos')
  })

  test('says a visitor suggested an accepted change', () => {
    const line = describeChange(group({ actor: 'ann@example.org', by_role: false, submission_id: 's1' }))
    expect(line.text).toBe("changed Big Rock Coffee (a visitor's suggestion)")
  })

  test('says a change made directly in the database without naming the role', () => {
    const line = describeChange(group({ rows: 8, main: null, tables: ['business_hours'] }))
    expect(line).toMatchObject({ who: null, text: 'Changed directly in the database: 8 opening hours lines' })
  })
})
