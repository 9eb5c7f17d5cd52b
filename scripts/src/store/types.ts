import type { Business, Catalog, ImageType, ImageVariant } from '../catalog/types.ts'
import type { FunctionName } from './database.ts'

/** Which database a store talks to. */
export type StoreKind = 'embedded' | 'supabase'

/** A business as the jobs see it (active or not), with its images. */
export interface BusinessRecord {
  id: string
  slug: string
  name: string
  category: string
  website: string | null
  is_active: boolean
  images: Array<{
    id: string
    image_url: string
    image_type: ImageType
    is_primary: boolean
    metadata: Record<string, unknown>
  }>
}

/** A photo's processed form, as a business_images row records it (see images/derivatives.ts). */
export interface ImageDerivativesRecord {
  width: number | null
  height: number | null
  placeholder: string | null
  variants: ImageVariant[]
}

/** The derivatives to record for one business image. */
export interface ImageDerivativesUpdate extends ImageDerivativesRecord {
  imageId: string
}

/** A business_images row to add; its derivatives are recorded with it when it has them. */
export interface NewBusinessImage extends Partial<ImageDerivativesRecord> {
  business_id: string
  image_url: string
  alt_text: string | null
  image_type: ImageType
  is_primary: boolean
  sort_order: number
  metadata: Record<string, unknown>
}

/** A business_images row with its business's name, as the derivatives backfill goes through them. */
export interface StoredBusinessImage extends ImageDerivativesRecord {
  id: string
  business_id: string
  business_slug: string
  business_name: string
  image_url: string
  image_type: ImageType
  metadata: Record<string, unknown>
}

/** Job kinds and statuses, as the jobs table constrains them. */
export type JobKind = 'migrate' | 'crawl' | 'images' | 'rebuild' | 'check'
export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'interrupted'

/** Where a job is: a phase name and a done/total count. */
export interface JobProgress {
  phase: string
  done: number
  total: number
}

/** One row of the jobs table. */
export interface Job {
  id: string
  kind: JobKind
  status: JobStatus
  params: Record<string, unknown>
  progress: JobProgress
  result: unknown
  error: string | null
  log: Array<{ at: string; message: string }>
  started_by: string
  /** The process that runs the job (its id, on host), so one that died can be told from one that runs. */
  pid: number | null
  host: string | null
  created_at: string
  started_at: string | null
  finished_at: string | null
  updated_at: string
}

/** The fields of a job that a runner changes as it goes. */
export type JobUpdate = Partial<
  Pick<Job, 'status' | 'progress' | 'result' | 'error' | 'started_at' | 'finished_at'>
> & {
  appendLog?: string[]
}

/** Files in the public 'files' bucket (Supabase Storage, or a folder for the embedded store). */
export interface FileStorage {
  /** Reads a file, or null when there is none at that path. */
  get(path: string): Promise<Uint8Array | null>
  /** Writes a file; fails when it exists unless upsert is set. */
  put(path: string, bytes: Uint8Array, options: { contentType: string; upsert?: boolean }): Promise<void>
  /** Removes a file if it exists. */
  remove(path: string): Promise<void>
  /** Lists the path of every file, sorted (a backup holds them all). */
  list(): Promise<string[]>
  /** The URL the public site uses for a file. */
  publicUrl(path: string): string
}

/** The job history. */
export interface JobStore {
  /** Records a queued job, run by this process (its pid and host are kept with it). */
  create(kind: JobKind, params: Record<string, unknown>, startedBy: string): Promise<Job>
  update(id: string, update: JobUpdate): Promise<Job>
  get(id: string): Promise<Job | null>
  list(limit?: number): Promise<Job[]>
  /** Lists the jobs still queued or running, by whichever process. */
  unfinished(): Promise<Job[]>
}

/** How a SQL function is called: the request headers it sees (current_setting('request.headers')). */
export interface CallOptions {
  headers?: Record<string, string>
}

/** An error a SQL function raised on purpose, with its SQLSTATE (PT400, PT429: PostgREST's HTTP statuses). */
export class SqlError extends Error {
  override name = 'SqlError'
  readonly code: string

  constructor(message: string, code: string) {
    super(message)
    this.code = code
  }

  /** The HTTP status PostgREST answers the error with: PTxyz is xyz, otherwise null. */
  get httpStatus(): number | null {
    const status = /^PT(\d{3})$/.exec(this.code)?.[1]
    return status ? Number(status) : null
  }
}

/** A read of the public catalog (Store.followCatalog), with what the next read needs. */
export interface CatalogRead {
  catalog: Catalog
  /** How many businesses were read from the database: all of them, or those changed since. */
  read: number | 'all'
  /** Where the data stood when read; none when the next read must read everything. */
  mark?: CatalogMark
}

/**
 * Where the data stood when the catalog was read: the audit log's last entry (it records every
 * change to the content tables, by trigger), a digest of the freshness findings (which hide a
 * website and are not audited), and each listed business as the database gave it.
 */
export interface CatalogMark {
  location: string
  auditId: string
  auditAt: string
  findings: string
  /** Each listed business's JSON, by id. */
  businesses: Map<string, string>
  /**
   * Each listed business as that read parsed it, by id: the next read takes a business whose JSON
   * is unchanged from here rather than parsing it again (at 100,000 businesses, 2 s of a rebuild).
   */
  parsed: Map<string, Business>
}

/** One interface over the embedded Postgres and Supabase (DESIGN.md, "Two stores"). */
export interface Store {
  readonly kind: StoreKind
  /** A human description of where the data lives, for messages. */
  readonly location: string
  /** Reads the public catalog exactly as the anon role may see it. */
  loadCatalog(): Promise<Catalog>
  /**
   * Reads the public catalog as loadCatalog does, reading again only the businesses changed since
   * an earlier read of the same database (`since`, its mark), where the store can tell (the embedded one).
   */
  followCatalog?(since?: CatalogMark): Promise<CatalogRead>
  /** Lists every business, active or not, with its images (service role). */
  listBusinesses(): Promise<BusinessRecord[]>
  /**
   * Calls a SQL function of the migrations with named arguments (service role). `headers` are the
   * request's headers as the function reads them (request.headers), as PostgREST passes them.
   */
  call<T>(fn: FunctionName, args: Record<string, unknown>, options?: CallOptions): Promise<T>
  /** Adds a business image, or returns the existing row for the same business and URL. */
  addImage(image: NewBusinessImage): Promise<{ id: string; created: boolean }>
  /**
   * Adds business images as addImage does, all in one transaction on the embedded store (one
   * after another on Supabase, whose REST API has no transaction over several calls).
   */
  addImages(images: readonly NewBusinessImage[]): Promise<Array<{ id: string; created: boolean }>>
  /** Lists every business image, of active businesses or not, in a stable order (service role). */
  listImages(): Promise<StoredBusinessImage[]>
  /**
   * Records the derivatives of existing business images, in one transaction on the embedded store;
   * returns the ids of the images that no longer exist (deleted meanwhile), which are left out.
   */
  recordImageDerivatives(records: readonly ImageDerivativesUpdate[]): Promise<{ missing: string[] }>
  readonly files: FileStorage
  readonly jobs: JobStore
  /** Releases the connection; the store is unusable afterwards. */
  close(): Promise<void>
}

/** An error a person can act on: what is wrong and how to fix it. */
export class StoreError extends Error {
  override name = 'StoreError'
}
