import { ensureAppBuilt } from './build-app.ts'

// `pnpm console:build`: builds the console app into console/dist now, even when it is up to date,
// and prints each file's size and gzip size (as `pnpm console` does when it builds).

try {
  await ensureAppBuilt((message) => process.stdout.write(`${message}\n`), { force: true })
} catch (error) {
  process.stderr.write(`console:build: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
}
