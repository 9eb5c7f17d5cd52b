import { setFlagsFromString } from 'node:v8'
import { workerData } from 'node:worker_threads'
import type { BuildThreadData } from './build-thread.ts'

// The build thread starts here. Its heap's limit was read as it started, from the process's
// --max-old-space-size, which its maker set to the thread's share (build-thread.ts); this sets the
// flag back to the value the process started with, before the thread loads a module. V8 keeps each
// module's compiled code under a hash of the process's flags (scripts/src/store/baseline-wasm.ts):
// set back by the main thread once it heard the thread was online, and to the heap's limit rather
// than the flag's value, the flag changed while either thread was loading modules, and a sample
// site's next build found 225-325 of its 2,089 modules' code rejected.
setFlagsFromString(`--max-old-space-size=${(workerData as BuildThreadData).heapFlagMb}`)
await import('./build-thread-worker.ts')
