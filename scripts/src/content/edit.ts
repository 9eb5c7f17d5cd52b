import { parseHours } from '../migrate/hours.ts'
import type { Actor } from '../operators/schema.ts'
import type { Store } from '../store/types.ts'

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

/** A content row as the SQL functions return it: its columns, `updated_at` as exact text. */
export type ContentRow = Record<string, unknown> & { id: string; updated_at: string }

/** What an edit came to: saved, no such row, a stale copy (with the current row), or a broken rule. */
export type EditOutcome =
  | { status: 'ok'; row: ContentRow }
  | { status: 'not_found' }
  | { status: 'conflict'; row: ContentRow }
  | { status: 'invalid'; message: string; constraint: string | null }

/** One entry of the audit trail. */
export interface AuditEntry {
  id: number
  at: string
  actor: string
  table: string
  row_id: string
  action: 'insert' | 'update' | 'delete'
  before: Record<string, unknown> | null
  after: Record<string, unknown> | null
  txid: number
  /** The visitor's submission the change applied, when an operator accepted one. */
  submission_id: string | null
}

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
  return store.call<EditOutcome>('create_row', { target: table, fields: withHoursDetail(table, fields), actor })
}

/** Changes the given fields of a row, refusing when it changed since `expectedUpdatedAt`. */
export function editRow(
  store: Store,
  table: ContentTable,
  id: string,
  fields: Record<string, unknown>,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<EditOutcome> {
  return store.call<EditOutcome>('edit_row', {
    target: table,
    row_id: id,
    fields: withHoursDetail(table, fields),
    expected_updated_at: expectedUpdatedAt,
    actor,
  })
}

/** Deletes a row (a business with its services, photos and hours), refusing when it changed since. */
export function deleteRow(
  store: Store,
  table: ContentTable,
  id: string,
  expectedUpdatedAt: string | null,
  actor: Actor,
): Promise<EditOutcome> {
  return store.call<EditOutcome>('delete_row', {
    target: table,
    row_id: id,
    expected_updated_at: expectedUpdatedAt,
    actor,
  })
}

/** Reads one content row, or null. */
export function contentRow(store: Store, table: ContentTable, id: string): Promise<ContentRow | null> {
  return store.call<ContentRow | null>('content_row', { target: table, row_id: id })
}

/** Reads every row of a content table, businesses with their services and photos, pages by path. */
export async function contentRows(store: Store, table: ContentTable): Promise<ContentRow[]> {
  if (table === 'pages') return (await store.call<ContentRow[] | null>('page_rows', {})) ?? []
  return (await store.call<ContentRow[] | null>('content_rows', { target: table })) ?? []
}

/** Puts a business's photos in the given order, in one change. */
export function reorderImages(
  store: Store,
  businessId: string,
  imageIds: string[],
  actor: Actor,
): Promise<EditOutcome> {
  return store.call<EditOutcome>('reorder_business_images', { business: businessId, image_ids: imageIds, actor })
}

/** Undoes the save an audit entry belongs to by writing the rows back (a new, audited change). */
export function undoChange(
  store: Store,
  entryId: number,
  actor: Actor,
): Promise<{ status: 'ok'; undone: number } | { status: 'not_found' } | { status: 'conflict'; message: string }> {
  return store.call('undo_change', { entry_id: entryId, actor })
}

/** Reads the audit trail, newest first: everything, one table, or one row. */
export async function auditEntries(
  store: Store,
  filter: { table?: string | undefined; rowId?: string | undefined; limit?: number | undefined } = {},
): Promise<AuditEntry[]> {
  return (
    (await store.call<AuditEntry[] | null>('audit_entries', {
      target: filter.table ?? null,
      row_id: filter.rowId ?? null,
      max_entries: filter.limit ?? 100,
    })) ?? []
  )
}
