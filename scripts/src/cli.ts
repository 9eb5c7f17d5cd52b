import { Command, CommanderError } from 'commander'
import { readdirSync } from 'node:fs'
import { enableCompileCache } from 'node:module'
import { loadDotEnv } from './env.ts'
import { keepWasmInBaselineOnly } from './store/baseline-wasm.ts'

// `pnpm roland …`: the operator toolkit. Each command is a thin shell over a job in scripts/src,
// the same functions the console calls. Exit 0 on success; otherwise non-zero with one line on stderr.

// Node keeps the compiled code of the modules a command loads (in os.tmpdir()/node-compile-cache,
// or NODE_COMPILE_CACHE), and the next command reuses it: `roland alerts --help` then starts in
// 0.3 s instead of 0.5 s on a 2-core machine, half the CPU time. Never an error: without a
// writable folder, a command compiles its modules as before.
enableCompileCache()

loadDotEnv()

// A command runs for seconds: the embedded Postgres stays in V8's baseline code (a large import,
// which runs many statements, lets V8 optimize its busiest functions: commands/migrate.ts).
keepWasmInBaselineOnly()

const program = new Command()
  .name('roland')
  .description('Operator tools for the Roland community site: database, migration, crawler, images, rebuild.')
  .showHelpAfterError()
  .exitOverride()

// Every module in commands/ that exports `register(program)` adds its commands, the one named after
// its file. A run that names its command loads that module alone: the others' imports (the
// crawler's, the images') would cost every process a few hundred milliseconds. Help, and a command
// that does not exist, load them all, to list them.
const commandsDir = new URL('./commands/', import.meta.url)
const modules = readdirSync(commandsDir)
  .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
  .sort()
const named = modules.find((file) => file === `${process.argv[2]}.ts`)
for (const file of named ? [named] : modules) {
  const module = (await import(new URL(file, commandsDir).href)) as { register?: (program: Command) => void }
  module.register?.(program)
}

try {
  await program.parseAsync(process.argv)
} catch (error) {
  if (error instanceof CommanderError) {
    process.exitCode = error.exitCode
  } else {
    const message = error instanceof Error ? error.message : String(error)
    // One line, reason then remedy, so scripts and the console can show it whole.
    process.stderr.write(`roland: ${message.replace(/\s*\n\s*/g, ' ')}\n`)
    process.exitCode = 1
  }
}
