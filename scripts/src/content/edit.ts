import { z } from 'zod'
import { parseHours } from '../migrate/hours.ts'
import type { Actor } from '../operators/schema.ts'
import { callParsed } from '../store/parsed-call.ts'
import type { Store } from '../store/types.ts'
import { auditEntrySchema, type AuditEntry } from './schema-base.ts'

// Editing content (issue 18): thin calls of the SQL functions in
// supabase/migrations/20261125000400_editing.sql, which do the work in one transaction and let
// the audit trigger record it under the acting operator. The console's routes use these.

/** The operator an edit is made by, as the audit trail names them (request.jwt.claims). */
export type { Actor } from '../operators/schema.ts'

/** The content tables an operator edits. */
export type ContentTable =
  | 'businesses'
  | 'business_images'
  | 'attractions'
  | 'community_events'
  | 'pages'
  | 'town_settings'
  | 'location_categories'
  | 'alerts'

/**
 * A content row as the SQL functions return it: its columns, kept as they come (the console shows
 * them), `updated_at` as exact text. The id is a uuid's text, or town_settings' number.
 */
export const contentRowSchema = z.looseObject({ id: z.union([z.string(), z.number()]), updated_at: z.string() })

/** A content row as the SQL functions return it: its columns, `updated_at` as exact text. */
export type ContentRow = z.output<typeof contentRowSchema>

/** The answers of an edit that was not made: no such row (its answer may say `row: null`), a stale copy, a broken rule. */
export const editRefusalSchemas = [
  z.looseObject({ status: z.literal('not_found') }),
  z.looseObject({ status: z.literal('conflict'), row: contentRowSchema }),
  z.looseObject({ status: z.literal('invalid'), message: z.string(), constraint: z.string().nullable() }),
] as const

/** What create_row, edit_row, delete_row and reorder_business_images answer. */
export const editOutcomeSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('ok'), row: contentRowSchema }),
  ...editRefusalSchemas,
])

/** What an edit came to: saved, no such row, a stale copy (with the current row), or a broken rule. */
export type EditOutcome = z.output<typeof editOutcomeSchema>

/** What undo_change answers. */
const undoOutcomeSchema = z.discriminatedUnion('status', [
  z.looseObject({ status: z.literal('ok'), undone: z.number().int() }),
  z.looseObject({ status: z.literal('not_found') }),
  z.looseObject({ status: z.literal('conflict'), message: z.string() }),
])

/** One entry of the audit trail (its schema is content/schema-base.ts's auditEntrySchema). */
export type { AuditEntry } from './schema-base.ts'

/**
 * Adds the parsed opening hours to a business's fields. The hours are stored twice, the text the
 * site shows and the rows the "open now" badge reads, parsed here as the import does, so the two never disagree.
 */
export function withHoursDetail(table: ContentTable, fields: Record<string, unknown>): Record<string, unknown> {
  if (table !== 'businesses' || !('hours' in fields)) return fields
  const hours = typeof fields.hours === 'string' ? fields.hours : ''
  return { ...fields, hours_detail: hours ? parseHours(hours) : [] }
}

/** Adds a row to a content table (a business with its services and hours). */
export function createRow(
  store: Store,
  table: ContentTable,
  fields: Record<string, unknown>,
  actor: Actor,
): Promise<EditOutcome> {
  return callParsed(
    store,
    'create_row',
    { target: table, fields: withHoursDetail(table, fields), actor },
    editOutcomeSchema,
  )
}

/** Changes the given fields of a row, refusing when it changed since `expectedUpdatedAt`. */
export function editRow(
  store: Store,
  table: ContentTable,
  id: ContentRow['id'],
  fields: Record<string, unknown>,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<EditOutcome> {
  return callParsed(
    store,
    'edit_row',
    {
      target: table,
      row_id: String(id),
      fields: withHoursDetail(table, fields),
      expected_updated_at: expectedUpdatedAt,
      actor,
    },
    editOutcomeSchema,
  )
}

/** Deletes a row (a business with its services, photos and hours), refusing when it changed since. */
export function deleteRow(
  store: Store,
  table: ContentTable,
  id: ContentRow['id'],
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<EditOutcome> {
  return callParsed(
    store,
    'delete_row',
    { target: table, row_id: String(id), expected_updated_at: expectedUpdatedAt, actor },
    editOutcomeSchema,
  )
}

/** Reads one content row, or null. */
export function contentRow(store: Store, table: ContentTable, id: ContentRow['id']): Promise<ContentRow | null> {
  return callParsed(store, 'content_row', { target: table, row_id: String(id) }, contentRowSchema.nullable())
}

/** Reads every row of a content table, businesses with their services and photos, pages by path. */
export async function contentRows(store: Store, table: ContentTable): Promise<ContentRow[]> {
  const rows = contentRowSchema.array().nullable()
  if (table === 'pages') return (await callParsed(store, 'page_rows', {}, rows)) ?? []
  return (await callParsed(store, 'content_rows', { target: table }, rows)) ?? []
}

/** Puts a business's photos in the given order, in one change. */
export function reorderImages(
  store: Store,
  businessId: string,
  imageIds: string[],
  actor: Actor,
): Promise<EditOutcome> {
  return callParsed(
    store,
    'reorder_business_images',
    { business: businessId, image_ids: imageIds, actor },
    editOutcomeSchema,
  )
}

/** Undoes the save an audit entry belongs to by writing the rows back (a new, audited change). */
export function undoChange(store: Store, entryId: number, actor: Actor): Promise<z.output<typeof undoOutcomeSchema>> {
  return callParsed(store, 'undo_change', { entry_id: entryId, actor }, undoOutcomeSchema)
}

/** Reads the audit trail, newest first: everything, one table, or one row. */
export async function auditEntries(
  store: Store,
  filter: { table?: string | undefined; rowId?: ContentRow['id'] | undefined; limit?: number | undefined } = {},
): Promise<AuditEntry[]> {
  const answer = await callParsed(
    store,
    'audit_entries',
    {
      target: filter.table ?? null,
      row_id: filter.rowId === undefined ? null : String(filter.rowId),
      max_entries: filter.limit ?? 100,
    },
    auditEntrySchema.array().nullable(),
  )
  return answer ?? []
}
