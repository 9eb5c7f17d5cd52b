// `pnpm bench`: runs each benchmark module in scripts/bench (or the ones named on the command
// line, e.g. `pnpm bench migrate`) and prints its figures. Benchmarks are never tests: they
// measure, they do not pass or fail.
import { readdirSync } from 'node:fs'
import { closeSharedBrowser } from '../../test/support/browser.ts'

const only = process.argv.slice(2)
const here = new URL('./', import.meta.url)
const modules = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .map((file) => file.replace(/\.bench\.ts$/, ''))
  .filter((name) => only.length === 0 || only.includes(name))
  .sort()

for (const name of modules) {
  process.stdout.write(`\n## ${name}\n`)
  const module = (await import(new URL(`${name}.bench.ts`, here).href)) as { run(): Promise<void> }
  await module.run()
}
// The benchmarks that drive Chromium share one (test/support/browser.ts); it would keep the process open.
await closeSharedBrowser()
