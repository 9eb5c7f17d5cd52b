import type { Database } from '../../../supabase/types.ts'

// The database's own types (issue 51): supabase/types.ts is generated from the migrations by
// `pnpm db:types` (scripts/db/generate-types.ts), so the compiler, not a failing test, finds a
// column a migration renamed. The supabase-js clients are typed with Database, row types are
// taken from it (Row), and hand-kept shapes (the catalog's zod schemas, the content rows) are
// checked against it (ColumnsOf). Answers of SQL functions are JSON to the compiler: they are
// parsed with zod where they enter TypeScript.

import type { Json } from '../../../supabase/types.ts'

export type { Database, Json } from '../../../supabase/types.ts'

/** The tables of the public schema. */
export type TableName = keyof Database['public']['Tables']

/** A table's row as `select *` answers it. */
export type Row<T extends TableName> = Database['public']['Tables'][T]['Row']

/** What an insert into a table takes (columns with defaults optional). */
export type Insert<T extends TableName> = Database['public']['Tables'][T]['Insert']

/** What an update of a table takes (every column optional). */
export type Update<T extends TableName> = Database['public']['Tables'][T]['Update']

/** The functions of the public schema (what `rpc` and `store.call` may call). */
export type FunctionName = keyof Database['public']['Functions']

/** The arguments of a SQL function, as the generator read them. */
export type FunctionArgs<F extends FunctionName> = Database['public']['Functions'][F]['Args']

/** Whether a field's values and a column's can be the same (either narrows the other; a JSON column takes any). */
type Fits<Column, Field> =
  NonNullable<Json> extends NonNullable<Column>
    ? true
    : NonNullable<Field> extends NonNullable<Column>
      ? true
      : NonNullable<Column> extends NonNullable<Field>
        ? true
        : false

/**
 * A shape kept by hand (a zod schema's output, an interface), checked against a table: the shape
 * itself when every field but the `Extra` ones is a column of the table whose values fit the
 * field, `never` otherwise, so code using the shape stops compiling when a migration renames,
 * drops or retypes a column it names. Use it where the shape's type is declared:
 * `type CalendarFeed = ColumnsOf<z.output<typeof schema>, 'calendar_feeds', 'events'>`.
 */
export type ColumnsOf<Shape, T extends TableName, Extra extends PropertyKey = never> =
  Exclude<keyof Shape, keyof Row<T> | Extra> extends never
    ? false extends { [K in Exclude<keyof Shape, Extra> & keyof Row<T>]-?: Fits<Row<T>[K], Shape[K]> }[Exclude<
        keyof Shape,
        Extra
      > &
        keyof Row<T>]
      ? never
      : Shape
    : never

/**
 * Columns of a table's row, some narrowed to what the code knows of them (a check constraint's
 * values, a JSON column's shape): `RowOf<'pages', 'id' | 'items', { items: PageItem[] }>`. A
 * column name that is not the table's stops compiling.
 */
export type RowOf<
  T extends TableName,
  K extends keyof Row<T>,
  Narrowed extends Partial<Record<K, unknown>> = object,
> = Omit<Pick<Row<T>, K>, keyof Narrowed> & Narrowed
