import { randomBytes } from 'node:crypto'
import { rmSync } from 'node:fs'
import { appendFile, link, mkdir, readdir, readFile, rename, rm, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { isProcessAlive } from '../lock-file.ts'
import { StoreError, type FileStorage } from './types.ts'

// The embedded store's files bucket is a folder (DESIGN.md, "Two stores"). A process can be killed
// at any moment (SIGKILL, a crash, a closed laptop), and what it leaves must be as before or as
// after, never between:
// - a file is written under a temporary name and renamed (or linked) into place, so a file at its
//   real name is always whole;
// - a job writes a picture's files before the business_images row that names them. Every path is
//   first noted in a journal of this process (storage/journal/<pid>.log), so the next process to
//   open the store after this one died removes what it wrote that no row names (see
//   sweepAfterCrash). A process that ends normally deletes its journal: it removed what it
//   wrote for a row it could not record (ingest.ts).

/** The folders of the bucket whose files business_images rows own (originals and derivatives). */
const imageFolders = ['business-images/', 'variants/']

/** The marker in the name of a file still being written: `<name>.partial-<pid>-<random>`. */
const partialMarker = '.partial-'

const journals = new Set<string>()
let exitHook = false

/** Keeps storage objects as files in a folder, or in memory when no folder is given. */
export function folderStorage(root: string | undefined, journalDir?: string): FileStorage {
  const memory = new Map<string, Uint8Array>()
  const resolve = (objectPath: string) => {
    const clean = path.posix.normalize(objectPath)
    if (clean.startsWith('..') || path.posix.isAbsolute(clean) || clean === '.' || clean.includes(partialMarker)) {
      throw new StoreError(`Not a storage path: ${objectPath}`)
    }
    return clean
  }
  const journal = journalDir ? path.join(journalDir, `${process.pid}.log`) : undefined
  return {
    async get(objectPath) {
      const key = resolve(objectPath)
      if (!root) return memory.get(key) ?? null
      try {
        return new Uint8Array(await readFile(path.join(root, key)))
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw error
      }
    },
    async put(objectPath, bytes, { upsert = false }) {
      const key = resolve(objectPath)
      if (!root) {
        if (!upsert && memory.has(key)) throw new StoreError(`The file ${key} already exists`)
        memory.set(key, bytes)
        return
      }
      const file = path.join(root, key)
      await mkdir(path.dirname(file), { recursive: true })
      if (journal) await noteWrite(journal, key)
      const temp = `${file}${partialMarker}${process.pid}-${randomBytes(6).toString('hex')}`
      try {
        await writeFile(temp, bytes)
        if (upsert) {
          await rename(temp, file)
        } else {
          // A link fails when the name is taken, where a rename would replace the file.
          await link(temp, file).catch((error: NodeJS.ErrnoException) => {
            if (error.code === 'EEXIST') throw new StoreError(`The file ${key} already exists`)
            throw error
          })
        }
      } finally {
        await rm(temp, { force: true })
      }
    },
    async remove(objectPath) {
      const key = resolve(objectPath)
      if (!root) {
        memory.delete(key)
        return
      }
      await rm(path.join(root, key), { force: true })
    },
    async list() {
      if (!root) return [...memory.keys()].sort()
      const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      })
      // A file still being written (or left half-written by a killed process) is not in the bucket.
      return entries
        .filter((entry) => entry.isFile() && !entry.name.includes(partialMarker))
        .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'))
        .sort()
    },
    publicUrl(objectPath) {
      return `/files/${resolve(objectPath)}`
    },
  }
}

async function noteWrite(journal: string, key: string): Promise<void> {
  if (!journals.has(journal)) {
    await mkdir(path.dirname(journal), { recursive: true })
    journals.add(journal)
    if (!exitHook) {
      exitHook = true
      process.once('exit', () => {
        for (const file of journals) rmSync(file, { force: true })
      })
    }
  }
  await appendFile(journal, `${key}\n`).catch(async (error: NodeJS.ErrnoException) => {
    // The folder was removed under it (a reset of the data folder): make it again.
    if (error.code !== 'ENOENT') throw error
    await mkdir(path.dirname(journal), { recursive: true })
    await appendFile(journal, `${key}\n`)
  })
}

/**
 * Cleans up after processes that died while writing to the bucket: for each journal of a process
 * that is gone, removes its half-written files and the pictures it wrote that no business_images
 * row names (referenced: the bucket paths the rows name), then the journal. Returns the paths removed.
 */
export async function sweepAfterCrash(
  root: string,
  journalDir: string,
  referenced: () => Promise<Set<string>>,
  isAlive: (pid: number) => boolean = isProcessAlive,
): Promise<string[]> {
  const names = await readdir(journalDir).catch(() => [] as string[])
  const dead = names.flatMap((name) => {
    const pid = Number(name.match(/^(\d+)\.log$/)?.[1])
    return pid && pid !== process.pid && !isAlive(pid) ? [{ pid, file: path.join(journalDir, name) }] : []
  })
  if (dead.length === 0) return []
  const named = await referenced()
  const removed: string[] = []
  for (const { pid, file } of dead) {
    const keys = new Set((await readFile(file, 'utf8')).split('\n').filter(Boolean))
    for (const key of keys) {
      const target = path.join(root, key)
      const prefix = `${path.basename(target)}${partialMarker}${pid}-`
      for (const entry of await readdir(path.dirname(target)).catch(() => [] as string[])) {
        if (entry.startsWith(prefix)) await rm(path.join(path.dirname(target), entry), { force: true })
      }
      if (imageFolders.some((folder) => key.startsWith(folder)) && !named.has(key)) {
        await rm(target, { force: true })
        removed.push(key)
      }
    }
    await unlink(file).catch(() => {})
  }
  return removed
}
