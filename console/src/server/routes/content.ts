import {
  auditEntries,
  contentRow,
  contentRows,
  createRow,
  deleteRow,
  editRow,
  reorderImages,
  undoChange,
  type ContentRow,
  type ContentTable,
  type EditOutcome,
} from '@roland/scripts/content/edit'
import { MAX_IMAGE_BYTES } from '@roland/scripts/crawl/download-image'
import { ImageError } from '@roland/scripts/images/image-error'
import { slugify } from '@roland/scripts/migrate/slug'
import { presetTerms } from '@roland/scripts/search/presets'
import { WordKeys } from '@roland/scripts/search/text'
import type { IncomingMessage } from 'node:http'
import { z } from 'zod'
import {
  attractionCreateSchema,
  attractionPatchSchema,
  businessSchemasFor,
  type BusinessRow,
  eventCreateSchema,
  eventPatchSchema,
  imageOrderSchema,
  imagePatchSchema,
  categoryPatchSchema,
  patchedTown,
  townPatchSchema,
  pagePatchSchema,
  plainText,
  updatedAtSchema,
} from '@roland/scripts/content/schema'
import { editTown, readTown, toTownRow, townRowId } from '@roland/scripts/content/town'
import type { Route, RouteContext } from '../context.ts'
import { HttpError, readBody, readJson, sendJson } from '../http.ts'

// Editing content (issue 18): businesses with their services, hours and photos, events and
// attractions, the audit trail and undo. Each handler validates with the shared schemas, makes
// one call into scripts/src/content (one SQL transaction), and answers with the saved row.

/** What each content table is called in messages and answers. */
const nouns: Record<ContentTable, { one: string; key: string; list: string }> = {
  businesses: { one: 'business', key: 'business', list: 'GET /api/businesses' },
  business_images: { one: 'photo', key: 'image', list: 'GET /api/businesses' },
  community_events: { one: 'event', key: 'event', list: 'GET /api/events' },
  attractions: { one: 'attraction', key: 'attraction', list: 'GET /api/attractions' },
  town_settings: { one: 'town', key: 'town', list: 'GET /api/town' },
  location_categories: { one: 'category', key: 'category', list: 'GET /api/categories' },
  pages: { one: 'page', key: 'page', list: 'GET /api/pages' },
  alerts: { one: 'alert', key: 'alert', list: 'GET /api/alerts' },
}

// Names the SQL gives its rules, and the field and message each stands for.
const ruleMessages: Record<string, { path: string; message: string }> = {
  businesses_slug_key: {
    path: 'name',
    message: 'Another business already has this name’s web address: change the name',
  },
  community_events_slug_key: { path: 'title', message: 'Another event on that day has this title: change the title' },
  attractions_pkey: { path: 'name', message: 'Another attraction already has this name: change it' },
  business_images_business_id_image_url_key: { path: 'file', message: 'This business already has this photo' },
  community_events_check: { path: 'ends_at', message: 'The end must not be before the start' },
  pages_always_published: {
    path: 'is_published',
    message: 'The home page, /businesses, /events, /contact and the 404 page stay published: the site needs them',
  },
  pages_body_check: { path: 'body', message: 'Body is too long: at most 100 KB of Markdown' },
  alerts_ends_after_start: { path: 'ends_at', message: 'The end time must be after the start' },
  alerts_body_check: { path: 'body', message: 'Text is too long: at most 10 KB of Markdown' },
}

/** Turns an edit's outcome into its row, or throws the answer: 404, 409 (with the current row) or 400. */
export function outcomeRow(context: RouteContext, table: ContentTable, outcome: EditOutcome): ContentRow {
  const noun = nouns[table]
  if (outcome.status === 'not_found') {
    throw new HttpError(404, `No ${noun.one} with id ${context.params.id ?? ''}: take the id from ${noun.list}.`)
  }
  if (outcome.status === 'conflict') {
    throw new HttpError(
      409,
      `This ${noun.one} was changed by someone else since you loaded it: reload it, then make your change again.`,
      { body: { current: outcome.row } },
    )
  }
  if (outcome.status === 'invalid') {
    const rule = outcome.constraint ? ruleMessages[outcome.constraint] : undefined
    const field = outcome.constraint?.match(new RegExp(`^${table}_(\\w+?)_check$`))?.[1]
    const issue = rule ?? { path: field ?? '', message: field ? `${field}: ${outcome.message}` : outcome.message }
    throw new HttpError(400, issue.message, { issues: [issue] })
  }
  return outcome.row
}

/** Turns an edit's outcome into the answer: the row, or 404, 409 (with the current row) or 400. */
function answer(context: RouteContext, table: ContentTable, outcome: EditOutcome, status = 200): ContentRow {
  const row = outcomeRow(context, table, outcome)
  context.services.scheduler.noteEdit()
  sendJson(context.res, status, { [nouns[table].key]: row })
  return row
}

// Ids: businesses, photos and events have UUIDs; attractions are named by their slug.
function rowId(table: ContentTable, raw: string | undefined): string {
  const ok = table === 'attractions' ? /^[a-z0-9]+(-[a-z0-9]+)*$/.test(raw ?? '') : z.uuid().safeParse(raw).success
  if (!ok) throw new HttpError(400, `That is not the id of a ${nouns[table].one}: take it from ${nouns[table].list}.`)
  return raw!
}

function withoutVersion<T extends { updated_at?: string | undefined }>(
  body: T,
): [Omit<T, 'updated_at'>, string | null] {
  const { updated_at, ...fields } = body
  return [fields, updated_at ?? null]
}

// The version a DELETE applies to, as ?updated_at= (a DELETE has no body to carry it).
function versionParam(url: URL): string | null {
  const raw = url.searchParams.get('updated_at')
  if (raw === null) return null
  if (!updatedAtSchema.safeParse(raw).success)
    throw new HttpError(400, 'updated_at must be the updated_at of the row as loaded')
  return raw
}

/**
 * Makes a row with a slug from its name through `create`, trying name-2, name-3… when the slug is
 * taken; answers the last outcome.
 */
export async function createWithFreeSlug<T extends EditOutcome | { status: string }>(
  base: string,
  create: (slug: string) => Promise<T>,
): Promise<T> {
  if (!base)
    throw new HttpError(400, 'The name needs at least one letter or digit', {
      issues: [{ path: 'name', message: 'The name needs at least one letter or digit' }],
    })
  let outcome: T | undefined
  for (let n = 1; n <= 20; n++) {
    outcome = await create(n === 1 ? base : `${base}-${n}`)
    const constraint = outcome.status === 'invalid' ? (outcome as { constraint?: string | null }).constraint : null
    if (!/_(slug_key|pkey)$/.test(constraint ?? '')) break
  }
  return outcome!
}

async function createWithSlug(
  context: RouteContext,
  table: ContentTable,
  slugColumn: 'slug' | 'id',
  base: string,
  fields: Record<string, unknown>,
): Promise<void> {
  const outcome = await createWithFreeSlug(base, (slug) =>
    createRow(context.services.store, table, { ...fields, [slugColumn]: slug }, context.actor),
  )
  answer(context, table, outcome, 201)
}

/** The slug an event's is made from: its title and the day it starts in the town (its time zone). */
export function eventSlugBase(fields: { title: string; starts_at: string }, timeZone: string): string {
  return slugify(fields.title) && `${slugify(fields.title).slice(0, 100)}-${townDate(fields.starts_at, timeZone)}`
}

/** The day an event starts, in the town's time zone, for its slug. */
function townDate(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(iso))
}

/** GET /api/events as JSON: every community event, newest first (the same path streams live updates). */
export async function sendEventList({ res, services }: RouteContext): Promise<void> {
  sendJson(res, 200, { events: await contentRows(services.store, 'community_events') })
}

// A multipart upload's parts, read with the platform's own parser (the body is already size-checked).
async function readMultipart(req: IncomingMessage): Promise<FormData> {
  const type = req.headers['content-type'] ?? ''
  if (!/^multipart\/form-data\b/i.test(type)) {
    throw new HttpError(415, 'Send the photo as multipart/form-data with a `file` part (and `alt_text`).')
  }
  const body = await readBody(req, MAX_IMAGE_BYTES + 64 * 1024)
  try {
    return await new Request('http://console.invalid/', {
      method: 'POST',
      headers: { 'content-type': type },
      body: new Uint8Array(body),
    }).formData()
  } catch {
    throw new HttpError(400, 'The upload is not readable multipart/form-data: send it again.')
  }
}

/** The editing routes. */
export const contentRoutes: Route[] = [
  {
    // Every business, active or not, with its services and photos: what the editor needs.
    method: 'GET',
    path: /^\/api\/businesses$/,
    async handler({ res, services }) {
      const businesses = (await contentRows(services.store, 'businesses')) as unknown as BusinessRow[]
      // What each business is, as the site's search reads it, so the console's search finds what a visitor's does.
      const wordKeys = new WordKeys()
      const withPresets = businesses.map((business) => ({
        ...business,
        presets: presetTerms(
          { ...business, services: business.services.map((service) => service.service_name) },
          wordKeys.of,
        ),
      }))
      sendJson(res, 200, { businesses: withPresets })
    },
  },
  {
    method: 'GET',
    path: /^\/api\/businesses\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('businesses', context.params.id)
      const row = await contentRow(context.services.store, 'businesses', id)
      if (!row) throw new HttpError(404, `No business with id ${id}: take the id from GET /api/businesses.`)
      sendJson(context.res, 200, { business: row })
    },
  },
  {
    method: 'POST',
    path: /^\/api\/businesses$/,
    async handler(context) {
      // The phone follows the town's country (town_settings.country).
      const { country } = await readTown(context.services.store)
      const fields = await readJson(context.req, businessSchemasFor(country).create)
      await createWithSlug(context, 'businesses', 'slug', slugify(fields.name), {
        ...fields,
        metadata: { source: 'console' },
      })
    },
  },
  {
    method: 'PATCH',
    path: /^\/api\/businesses\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('businesses', context.params.id)
      const { country } = await readTown(context.services.store)
      const [fields, version] = withoutVersion(await readJson(context.req, businessSchemasFor(country).patch))
      answer(
        context,
        'businesses',
        await editRow(context.services.store, 'businesses', id, fields, version, context.actor),
      )
    },
  },
  {
    method: 'DELETE',
    path: /^\/api\/businesses\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('businesses', context.params.id)
      answer(
        context,
        'businesses',
        await deleteRow(context.services.store, 'businesses', id, versionParam(context.url), context.actor),
      )
    },
  },
  {
    // A photo upload: multipart with `file` and `alt_text`; the bytes must be a photo.
    method: 'POST',
    path: /^\/api\/businesses\/(?<id>[^/]+)\/images$/,
    async handler(context) {
      const businessId = rowId('businesses', context.params.id)
      const form = await readMultipart(context.req)
      const file = form.get('file')
      if (!(file instanceof File)) {
        throw new HttpError(400, 'Choose a photo to upload (the `file` part is missing).', {
          issues: [{ path: 'file', message: 'Choose a photo to upload' }],
        })
      }
      const altText = imagePatchSchema.shape.alt_text.safeParse(form.get('alt_text') ?? null)
      if (!altText.success) {
        const message = altText.error.issues[0]?.message ?? 'Alt text is not valid'
        throw new HttpError(400, message, { issues: [{ path: 'alt_text', message }] })
      }
      try {
        // Loaded with the first upload: sharp and the image pipeline (crawl-jobs.ts says why).
        const { addUploadedImage } = await import('@roland/scripts/images/upload')
        const row = await addUploadedImage(context.services.store, {
          businessId,
          bytes: new Uint8Array(await file.arrayBuffer()),
          fileName: file.name,
          altText: altText.data ?? null,
          actor: context.actor,
        })
        context.services.scheduler.noteEdit()
        sendJson(context.res, 201, { image: row })
      } catch (error) {
        if (error instanceof ImageError && (error.code === 'invalid-input' || error.code === 'not-found')) {
          throw new HttpError(error.code === 'not-found' ? 404 : 400, error.message, {
            issues: [{ path: 'file', message: error.message }],
          })
        }
        throw error
      }
    },
  },
  {
    // The new order of the photos: { image_ids: [first, …, last] }.
    method: 'PUT',
    path: /^\/api\/businesses\/(?<id>[^/]+)\/images\/order$/,
    async handler(context) {
      const businessId = rowId('businesses', context.params.id)
      const { image_ids } = await readJson(context.req, imageOrderSchema)
      answer(context, 'businesses', await reorderImages(context.services.store, businessId, image_ids, context.actor))
    },
  },
  {
    // A photo's alt text, primary flag or type.
    method: 'PATCH',
    path: /^\/api\/images\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('business_images', context.params.id)
      const [fields, version] = withoutVersion(await readJson(context.req, imagePatchSchema))
      answer(
        context,
        'business_images',
        await editRow(context.services.store, 'business_images', id, fields, version, context.actor),
      )
    },
  },
  {
    // Removes a photo from its business. The file stays in storage, so an undo brings the photo back.
    method: 'DELETE',
    path: /^\/api\/images\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('business_images', context.params.id)
      answer(
        context,
        'business_images',
        await deleteRow(context.services.store, 'business_images', id, versionParam(context.url), context.actor),
      )
    },
  },
  {
    method: 'POST',
    path: /^\/api\/events$/,
    async handler(context) {
      const fields = await readJson(context.req, eventCreateSchema)
      const { time_zone } = await readTown(context.services.store)
      await createWithSlug(context, 'community_events', 'slug', eventSlugBase(fields, time_zone), fields)
    },
  },
  {
    method: 'PATCH',
    path: /^\/api\/events\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('community_events', context.params.id)
      const [fields, version] = withoutVersion(await readJson(context.req, eventPatchSchema))
      answer(
        context,
        'community_events',
        await editRow(context.services.store, 'community_events', id, fields, version, context.actor),
      )
    },
  },
  {
    method: 'DELETE',
    path: /^\/api\/events\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('community_events', context.params.id)
      answer(
        context,
        'community_events',
        await deleteRow(context.services.store, 'community_events', id, versionParam(context.url), context.actor),
      )
    },
  },
  {
    method: 'GET',
    path: /^\/api\/attractions$/,
    async handler({ res, services }) {
      sendJson(res, 200, { attractions: await contentRows(services.store, 'attractions') })
    },
  },
  {
    method: 'POST',
    path: /^\/api\/attractions$/,
    async handler(context) {
      const fields = await readJson(context.req, attractionCreateSchema)
      await createWithSlug(context, 'attractions', 'id', slugify(fields.name), fields)
    },
  },
  {
    method: 'PATCH',
    path: /^\/api\/attractions\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('attractions', context.params.id)
      const [fields, version] = withoutVersion(await readJson(context.req, attractionPatchSchema))
      answer(
        context,
        'attractions',
        await editRow(context.services.store, 'attractions', id, fields, version, context.actor),
      )
    },
  },
  {
    method: 'DELETE',
    path: /^\/api\/attractions\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('attractions', context.params.id)
      answer(
        context,
        'attractions',
        await deleteRow(context.services.store, 'attractions', id, versionParam(context.url), context.actor),
      )
    },
  },
  {
    // The town settings (issue 39): every operator reads them (the console shows times in the town's zone).
    method: 'GET',
    path: /^\/api\/town$/,
    async handler({ res, services }) {
      sendJson(res, 200, { town: await readTown(services.store) })
    },
  },
  {
    // Any of the settings; the row they make is checked whole (a ZIP follows the country), and saved only if valid.
    method: 'PATCH',
    path: /^\/api\/town$/,
    adminOnly: true,
    async handler(context) {
      const [fields, version] = withoutVersion(await readJson(context.req, townPatchSchema))
      const checked = patchedTown(await readTown(context.services.store), fields)
      if (!checked.success) {
        const issues = checked.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }))
        throw new HttpError(400, issues[0]?.message ?? 'The town settings are not valid', { issues })
      }
      const changed = Object.fromEntries(
        Object.keys(fields).map((key) => [key, checked.data[key as keyof typeof checked.data]]),
      )
      const row = outcomeRow(
        context,
        'town_settings',
        await editTown(context.services.store, changed, version, context.actor),
      )
      context.services.scheduler.noteEdit()
      sendJson(context.res, 200, { town: toTownRow(row) })
    },
  },
  {
    // The categories, for their descriptions (the words under each section's name on the site).
    method: 'GET',
    path: /^\/api\/categories$/,
    async handler({ res, services }) {
      sendJson(res, 200, { categories: await contentRows(services.store, 'location_categories') })
    },
  },
  {
    method: 'PATCH',
    path: /^\/api\/categories\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('location_categories', context.params.id)
      const [fields, version] = withoutVersion(await readJson(context.req, categoryPatchSchema))
      answer(
        context,
        'location_categories',
        await editRow(context.services.store, 'location_categories', id, fields, version, context.actor),
      )
    },
  },
  {
    // Every page (published or not), by URL: what the Pages screen lists.
    method: 'GET',
    path: /^\/api\/pages$/,
    async handler({ res, services }) {
      sendJson(res, 200, { pages: await contentRows(services.store, 'pages') })
    },
  },
  {
    // Any of title, description, intro, body (Markdown, up to 100 KB), items, is_published.
    method: 'PATCH',
    path: /^\/api\/pages\/(?<id>[^/]+)$/,
    async handler(context) {
      const id = rowId('pages', context.params.id)
      // Room for a body just over its 100 KB, so the answer is a 400 naming the body, not a 413.
      const [fields, version] = withoutVersion(await readJson(context.req, pagePatchSchema, 1024 * 1024))
      answer(context, 'pages', await editRow(context.services.store, 'pages', id, fields, version, context.actor))
    },
  },
  {
    // The audit trail, newest first: ?table= and ?row= narrow it to a table or one row, ?limit= (1..1000).
    method: 'GET',
    path: /^\/api\/audit$/,
    async handler({ res, url, services }) {
      const query = z
        .object({
          table: z
            .enum(
              [
                'businesses',
                'business_services',
                'business_images',
                'business_hours',
                'attractions',
                'community_events',
                'location_categories',
                'town_settings',
                'pages',
                'alerts',
              ],
              'table must be one of the content tables',
            )
            .optional(),
          row: plainText('row').min(1).max(200).optional(),
          limit: z.coerce.number().int().min(1).max(1000).default(100),
        })
        .safeParse(Object.fromEntries(url.searchParams))
      if (!query.success) throw new HttpError(400, query.error.issues[0]?.message ?? 'Invalid audit query')
      const entries = await auditEntries(services.store, {
        table: query.data.table,
        rowId: query.data.row,
        limit: query.data.limit,
      })
      sendJson(res, 200, { entries })
    },
  },
  {
    // Undo the save an audit entry belongs to: a new change, audited like any other.
    method: 'POST',
    path: /^\/api\/audit\/(?<id>\d+)\/undo$/,
    async handler(context) {
      if (context.actor.role !== 'admin') await refuseTownUndo(context, Number(context.params.id))
      const ofAlert = await isAlertChange(context, Number(context.params.id))
      const outcome = await undoChange(context.services.store, Number(context.params.id), context.actor)
      if (outcome.status === 'not_found')
        throw new HttpError(404, `No audit entry ${context.params.id}: take it from GET /api/audit.`)
      if (outcome.status === 'conflict') throw new HttpError(409, outcome.message)
      // Undoing an alert's change changes the banner on every page: rebuild at once, as the change did.
      if (ofAlert) {
        context.services.scheduler.requestUrgent()
        await context.services.alertTimer.plan().catch(() => {})
      } else context.services.scheduler.noteEdit()
      sendJson(context.res, 200, outcome)
    },
  },
]

/** Whether an audit entry is a change of an alert (whose undo the town sees at once). */
async function isAlertChange(context: RouteContext, entryId: number): Promise<boolean> {
  const changes = await auditEntries(context.services.store, { table: 'alerts', limit: 1000 })
  return changes.some((entry) => entry.id === entryId)
}

/** Only admins change the town settings, so only they undo a change of them (403 for an editor). */
async function refuseTownUndo(context: RouteContext, entryId: number): Promise<void> {
  const townChanges = await auditEntries(context.services.store, {
    table: 'town_settings',
    rowId: townRowId,
    limit: 1000,
  })
  if (townChanges.some((entry) => entry.id === entryId)) {
    throw new HttpError(403, 'Only an admin may undo a change to the town settings: ask an admin.')
  }
}
