import { loadDotEnv } from '@roland/scripts/env'
import { ensureAppBuilt } from './build-app.ts'
import { readConsoleConfig } from './config.ts'
import { startConsoleServer } from './server.ts'

// `pnpm console`: builds the app when it is missing or stale, then serves the console on
// 127.0.0.1 (PORT, default 4322). Errors end the process with one line saying what to fix.

try {
  loadDotEnv()
  const config = readConsoleConfig()
  await ensureAppBuilt((message) => process.stdout.write(`${message}\n`))
  const server = await startConsoleServer({ config })
  process.stdout.write(`Roland console: ${server.url}\n`)
  if (config.secretGenerated) {
    process.stdout.write(
      `Console secret (generated for this run; set CONSOLE_TOKEN in .env to keep one): ${config.secret}\n`,
    )
  }
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    process.stdout.write('Stopping the console…\n')
    void server.close().then(() => process.exit(0))
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
} catch (error) {
  const code = (error as NodeJS.ErrnoException).code
  const message =
    code === 'EADDRINUSE'
      ? `port ${process.env.PORT || 4322} of 127.0.0.1 is in use: stop the other console (or program) there, or set PORT to a free port.`
      : error instanceof Error
        ? error.message
        : String(error)
  process.stderr.write(`console: ${message.replace(/\s*\n\s*/g, ' ')}\n`)
  process.exit(1)
}
