import { describe, expectTypeOf, test } from 'vitest'
import type { ColumnsOf, Row, RowOf } from './database.ts'

// Types only: these fail `pnpm typecheck` (tsc reads the test files), not the test run. They say
// that a shape naming a column the migrations do not have, or of another type, is refused.

describe('ColumnsOf', () => {
  test('is the shape when its fields are columns of the table, of types that fit', () => {
    expectTypeOf<ColumnsOf<{ name: string; rating: number | null }, 'attractions'>>().toEqualTypeOf<{
      name: string
      rating: number | null
    }>()
    expectTypeOf<ColumnsOf<{ category: 'Recreation' }, 'attractions'>>().toEqualTypeOf<{ category: 'Recreation' }>()
  })

  test('is never when a field is no column, or its type cannot be the column’s', () => {
    expectTypeOf<ColumnsOf<{ nmae: string }, 'attractions'>>().toBeNever()
    expectTypeOf<ColumnsOf<{ name: number }, 'attractions'>>().toBeNever()
  })

  test('lets the named extra fields be', () => {
    expectTypeOf<ColumnsOf<{ name: string; events: number }, 'calendar_feeds', 'events'>>().toEqualTypeOf<{
      name: string
      events: number
    }>()
  })
})

describe('RowOf', () => {
  test('takes the columns’ types, narrowed where asked', () => {
    expectTypeOf<RowOf<'pages', 'path' | 'items', { items: string[] }>['path']>().toEqualTypeOf<Row<'pages'>['path']>()
    expectTypeOf<RowOf<'pages', 'path' | 'items', { items: string[] }>['items']>().toEqualTypeOf<string[]>()
  })
})
