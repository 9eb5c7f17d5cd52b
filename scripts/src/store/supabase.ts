import { createClient, type SupabaseClient } from '@supabase/supabase-js'
import { hostname } from 'node:os'
import { parseCatalog, type Catalog } from '../catalog/types.ts'
import {
  SqlError,
  StoreError,
  type BusinessRecord,
  type CallOptions,
  type FileStorage,
  type Job,
  type JobStore,
  type NewBusinessImage,
  type Store,
  type StoredBusinessImage,
} from './types.ts'

/** Where the Supabase project is and the keys it takes. */
export interface SupabaseSettings {
  url: string
  /** The publishable (or legacy anon) key: public by design, used for every public read. */
  publicKey: string
  /** The secret (or legacy service_role) key: server-side only, needed for writes and jobs. */
  secretKey: string | null
}

const bucket = 'files'
/** Rows read per request when a table may hold more than PostgREST's max-rows. */
const pageSize = 1000

// website_hidden is a computed column (a SQL function of the row), which PostgREST gives only when named.
const catalogSelect =
  '*, website_hidden, services:business_services(*), images:business_images(*), hours_detail:business_hours(*)'

/** A store over a Supabase project, with its clients for what only Supabase does (Auth). */
export interface SupabaseStore extends Store {
  readonly kind: 'supabase'
  /** Where the project is and its keys (a sign-in needs a client of its own, holding nobody else's session). */
  readonly settings: SupabaseSettings
  /** A client with the secret key (service role), or a clear error when the key is not set. */
  admin(): SupabaseClient
}

/** Opens a store over a Supabase project (DESIGN.md, "Two stores"). */
export function openSupabaseStore(settings: SupabaseSettings): SupabaseStore {
  const options = { auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false } }
  const publicClient = createClient(settings.url, settings.publicKey, options)
  let secretClient: SupabaseClient | null = null
  const admin = (): SupabaseClient => {
    if (!settings.secretKey) {
      throw new StoreError(
        'This needs the Supabase secret key: set SUPABASE_SECRET_KEY (or the legacy SUPABASE_SERVICE_ROLE_KEY) ' +
          'in .env, from the Supabase dashboard, Project Settings → API Keys. Keep it on the server.',
      )
    }
    secretClient ??= createClient(settings.url, settings.secretKey, options)
    return secretClient
  }
  const location = `Supabase at ${settings.url}`
  const fail = (action: string, error: { message: string; code?: string } | null): never => {
    throw new StoreError(`Could not ${action} (${location}): ${error?.message ?? 'no answer'}`)
  }

  const files: FileStorage = {
    async get(path) {
      const { data, error } = await admin().storage.from(bucket).download(path)
      if (error) {
        const status = (error as { status?: number; statusCode?: string }).status
        if (status === 404 || /not found/i.test(error.message)) return null
        return fail(`download ${path}`, error)
      }
      return new Uint8Array(await data.arrayBuffer())
    },
    async put(path, bytes, { contentType, upsert = false }) {
      const { error } = await admin().storage.from(bucket).upload(path, bytes, { contentType, upsert })
      if (error) fail(`upload ${path}`, error)
    },
    async remove(path) {
      const { error } = await admin().storage.from(bucket).remove([path])
      if (error) fail(`remove ${path}`, error)
    },
    async list() {
      // Storage lists one folder at a time, a page at a time; a folder is an entry without an id.
      const found: string[] = []
      const folders = ['']
      for (let folder = folders.pop(); folder !== undefined; folder = folders.pop()) {
        for (let offset = 0; ; offset += pageSize) {
          const { data, error } = await admin()
            .storage.from(bucket)
            .list(folder, { limit: pageSize, offset, sortBy: { column: 'name', order: 'asc' } })
          if (error) return fail(`list the files under ${folder || 'the bucket'}`, error)
          for (const entry of data) {
            const entryPath = folder ? `${folder}/${entry.name}` : entry.name
            if (entry.id === null) folders.push(entryPath)
            else found.push(entryPath)
          }
          if (data.length < pageSize) break
        }
      }
      return found.sort()
    },
    publicUrl(path) {
      return publicClient.storage.from(bucket).getPublicUrl(path).data.publicUrl
    },
  }

  const addImage = async (image: NewBusinessImage): Promise<{ id: string; created: boolean }> => {
    const existing = await admin()
      .from('business_images')
      .select('id')
      .eq('business_id', image.business_id)
      .eq('image_url', image.image_url)
      .maybeSingle<{ id: string }>()
    if (existing.error) return fail('look up the image', existing.error)
    if (existing.data) return { id: existing.data.id, created: false }
    const { data, error } = await admin().from('business_images').insert(image).select('id').single<{ id: string }>()
    if (error) return fail('add the image', error)
    return { id: data.id, created: true }
  }

  const jobs: JobStore = {
    async create(kind, params, startedBy) {
      const { data, error } = await admin()
        .from('jobs')
        .insert({ kind, params, started_by: startedBy, pid: process.pid, host: hostname() })
        .select()
        .single<Job>()
      if (error) return fail('record the job', error)
      return data
    },
    async update(id, update) {
      const { appendLog, ...fields } = update
      const patch: Record<string, unknown> = { ...fields }
      if (appendLog?.length) {
        const current = await jobs.get(id)
        if (!current) throw new StoreError(`No job with id ${id}`)
        patch.log = [...current.log, ...appendLog.map((message) => ({ at: new Date().toISOString(), message }))]
      }
      const { data, error } = await admin().from('jobs').update(patch).eq('id', id).select().single<Job>()
      if (error) return fail('update the job', error)
      return data
    },
    async get(id) {
      const { data, error } = await admin().from('jobs').select('*').eq('id', id).maybeSingle<Job>()
      if (error) return fail('read the job', error)
      return data
    },
    async list(limit = 100) {
      const { data, error } = await admin()
        .from('jobs')
        .select('*')
        .order('created_at', { ascending: false })
        .limit(limit)
      if (error) return fail('list the jobs', error)
      return data as Job[]
    },
    async unfinished() {
      const { data, error } = await admin()
        .from('jobs')
        .select('*')
        .in('status', ['queued', 'running'])
        .order('created_at', { ascending: true })
      if (error) return fail('list the unfinished jobs', error)
      return data as Job[]
    },
  }

  return {
    kind: 'supabase',
    location,
    async loadCatalog(): Promise<Catalog> {
      const [town, businesses, categories, attractions, events, pages, alerts] = await Promise.all([
        publicClient.from('town_settings').select('*').eq('id', 1).maybeSingle(),
        publicClient.from('businesses').select(catalogSelect).eq('is_active', true).order('name'),
        publicClient.from('location_categories').select('*').order('sort_order'),
        publicClient.from('attractions').select('*').eq('is_active', true).order('sort_order'),
        publicClient.from('community_events').select('*').eq('is_active', true).order('starts_at'),
        publicClient
          .from('pages')
          .select('path, title, description, intro, body, items')
          .eq('is_published', true)
          .order('path'),
        publicClient
          .from('alerts')
          .select('*, messages:alert_messages(*)')
          .in('status', ['published', 'ended'])
          .order('published_at', { ascending: false }),
      ])
      for (const [what, answer] of Object.entries({
        businesses,
        categories,
        attractions,
        events,
        pages,
        alerts,
        town,
      })) {
        if (answer.error) fail(`read ${what}`, answer.error)
      }
      return parseCatalog(
        {
          town: town.data as unknown,
          businesses: businesses.data,
          categories: categories.data,
          attractions: attractions.data,
          events: events.data,
          pages: pages.data,
          alerts: alerts.data,
        },
        location,
      )
    },
    async listBusinesses(): Promise<BusinessRecord[]> {
      const { data, error } = await admin()
        .from('businesses')
        .select(
          'id, slug, name, category, website, is_active, images:business_images(id, image_url, image_type, is_primary, metadata)',
        )
        .order('name')
        .overrideTypes<BusinessRecord[], { merge: false }>()
      if (error) return fail('list businesses', error)
      return data
    },
    async call<T>(fn: string, args: Record<string, unknown>, options: CallOptions = {}): Promise<T> {
      let request = admin().rpc(fn, args)
      for (const [name, value] of Object.entries(options.headers ?? {})) request = request.setHeader(name, value)
      const answer = await request
      if (answer.error && /^PT\d{3}$/.test(answer.error.code ?? ''))
        throw new SqlError(answer.error.message, answer.error.code)
      if (answer.error) return fail(`call ${fn}`, answer.error)
      return answer.data as T
    },
    addImage,
    async addImages(images) {
      const added: Array<{ id: string; created: boolean }> = []
      for (const image of images) added.push(await addImage(image))
      return added
    },
    async listImages(): Promise<StoredBusinessImage[]> {
      // PostgREST answers at most max-rows (1000 by default) a request: read the table page by page.
      const images: Array<Omit<StoredBusinessImage, 'business_slug' | 'business_name'>> = []
      for (let from = 0; ; from += pageSize) {
        const { data, error } = await admin()
          .from('business_images')
          .select('id, business_id, image_url, image_type, metadata, width, height, placeholder, variants')
          .order('id')
          .range(from, from + pageSize - 1)
        if (error) return fail('list the business images', error)
        images.push(...(data as typeof images))
        if (data.length < pageSize) break
      }
      const names = new Map<string, { slug: string; name: string }>()
      for (let from = 0; ; from += pageSize) {
        const { data, error } = await admin()
          .from('businesses')
          .select('id, slug, name')
          .order('id')
          .range(from, from + pageSize - 1)
        if (error) return fail('list businesses', error)
        for (const row of data as Array<{ id: string; slug: string; name: string }>) names.set(row.id, row)
        if (data.length < pageSize) break
      }
      return images.map((image) => ({
        ...image,
        business_slug: names.get(image.business_id)?.slug ?? '',
        business_name: names.get(image.business_id)?.name ?? image.business_id,
      }))
    },
    async recordImageDerivatives(records) {
      const missing: string[] = []
      for (const record of records) {
        const { data, error } = await admin()
          .from('business_images')
          .update({
            width: record.width,
            height: record.height,
            placeholder: record.placeholder,
            variants: record.variants,
          })
          .eq('id', record.imageId)
          .select('id')
        if (error) return fail(`record the derivatives of image ${record.imageId}`, error)
        if (!data.length) missing.push(record.imageId)
      }
      return { missing }
    },
    files,
    jobs,
    settings,
    admin,
    async close() {
      // Only when a channel was opened: realtime-js's disconnect leaves a 10 s timer running, which
      // kept every CLI command on Supabase alive for 10 s after its work was done.
      const clients = [publicClient, secretClient].filter((client) => client?.getChannels().length)
      await Promise.all(clients.map((client) => client!.removeAllChannels()))
    },
  }
}
