// The record a published build leaves for the next one (publish-site.ts), written once the build
// is served (after-served.ts), and read back as the next build starts: the process that wrote it
// last takes it as it is.
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { processMemo, processSlot } from '@roland/scripts/process-slot'
import type { FileStamp } from './file-stamps.ts'

/**
 * What a published build leaves for the next one (in Astro's cache folder): the files it wrote, so
 * the next build can bring the spare copy of the site up to date by copying only those, and the
 * storage files each page refers to, so the next build reads again only the pages it rewrites.
 */
export interface PublishRecord {
  finalDir: string
  /**
   * Whether `written` is every file of the site: the build started from an empty staging folder,
   * so it rendered every page, and Astro's cache holds a copy of each for the next staging folder.
   */
  complete: boolean
  /**
   * The files this build wrote (paths relative to the output folder), with the time and size they
   * were published with: a file found otherwise was changed by hand and is not copied.
   */
  written: FileStamp[]
  /** Paths of the files of the site before it that this build removed. */
  removed: string[]
  /**
   * Every file of the site it published: the next build, which starts from this site, finds the
   * files it has without reading every folder (at 100,000 businesses, a folder a page: 2 s). The
   * records of earlier releases have none: their next build reads the folders. (So a file added to
   * the published folder by hand, which no list names, is no longer found and removed: the folder
   * is the build's. A file changed by hand still is, by its stamp: prepareStaging.)
   */
  files?: string[]
  /** The /files/… URLs of each page that refers to any. */
  references: Record<string, string[]>
}

/**
 * The record this process wrote last, with its file's stamp: a process that builds again (the
 * console's) takes it as it is while the file is still the one it wrote (at 100,000 businesses,
 * parsing its 124,000 file names again took 0.05 s of a rebuild).
 */
const recordWritten = processSlot<{ file: string; mtimeMs: number; size: number; record: PublishRecord }>(
  'roland.site.publish-record',
)

/** The files a record lists, as a set: once for each record (readRecord keeps the one written last). */
export const recordedFiles = processMemo(
  'roland.site.publish-record-files',
  (record: PublishRecord): ReadonlySet<string> => {
    return new Set(record.files)
  },
)

function fileStamp(file: string): { mtimeMs: number; size: number } {
  const { mtimeMs, size } = statSync(file)
  return { mtimeMs, size }
}

export async function readRecord(file: string): Promise<PublishRecord | null> {
  const written = recordWritten.get()
  recordWritten.set(undefined)
  try {
    const stamp = written?.file === file ? fileStamp(file) : undefined
    if (stamp?.mtimeMs === written?.mtimeMs && stamp?.size === written?.size && written) return written.record
  } catch {
    // Gone: read as any other.
  }
  try {
    const record = JSON.parse(await readFile(file, 'utf8')) as PublishRecord
    const lists = [record.written, record.removed, record.files ?? []].every(Array.isArray)
    const stamped = lists && record.written.every((stamp) => typeof stamp?.file === 'string')
    return typeof record.finalDir === 'string' && stamped && record.references ? record : null
  } catch {
    return null
  }
}

/** Writes the record, and keeps it for this process's next build. */
export function writeRecord(file: string, record: PublishRecord): void {
  mkdirSync(path.dirname(file), { recursive: true })
  writeFileSync(file, JSON.stringify(record))
  recordWritten.set({ file, ...fileStamp(file), record })
}
