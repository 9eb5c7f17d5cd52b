// The catalog reader (catalog-reader.ts) as a build's process on standby starts it, for a catalog
// handed ahead (catalog-read.ts, readCatalogAhead). A process on standby checks, when started, that
// none of the modules it loaded has changed since (build-standby.ts); this thread's are not seen by
// that thread's hook, so this one notes them, and the reader reports them once loaded.
import { registerHooks } from 'node:module'

const loaded = new Set([import.meta.url])
registerHooks({
  resolve(specifier, context, next) {
    const resolved = next(specifier, context)
    if (resolved.url.startsWith('file:')) loaded.add(resolved.url)
    return resolved
  },
})
// Read by catalog-reader.ts, under the same key. Imported once the hook is in place, as every module after it.
const { processSlot } = await import('@roland/scripts/process-slot')
processSlot<Set<string>>('roland.site.reader-modules').set(loaded)
await import('./catalog-reader.ts')
