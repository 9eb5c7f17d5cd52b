import { loadDotEnv } from '@roland/scripts/env'
import { operatorDirectory } from '@roland/scripts/operators/directory'
import { ensureAppBuilt } from './build-app.ts'
import { readConsoleConfig } from './config.ts'
import { startConsoleServer } from './server.ts'

// `pnpm console` (main.ts): builds the app when it is missing or stale, then serves the console on
// 127.0.0.1 (PORT, default 4322). With no operator yet, it says how to create the first admin.
// Errors end the process with one line saying what to fix.

try {
  loadDotEnv()
  const config = readConsoleConfig()
  await ensureAppBuilt((message) => process.stdout.write(`${message}\n`))
  const server = await startConsoleServer({ config })
  process.stdout.write(
    `Roland console: ${server.url}${config.publicUrl ? ` (public address ${config.publicUrl.origin})` : ''}\n`,
  )
  const operators = await server.services.store.use((store) => operatorDirectory(store).count())
  if (operators === 0) {
    process.stdout.write(
      'No operators yet. Create the first admin (you will be asked for a password), then sign in:\n' +
        '  pnpm roland operators add you@example.org --role admin\n',
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
