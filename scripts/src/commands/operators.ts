import type { Command } from 'commander'
import { operatorDirectory, type OperatorDirectory } from '../operators/directory.ts'
import { promptNewPassword, readPasswordFromStdin } from '../operators/password-input.ts'
import { minPasswordLength, operatorRoleSchema, type OperatorRole, type OperatorView } from '../operators/schema.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { openStore } from '../store/index.ts'
import { StoreError } from '../store/types.ts'

/** Adds `roland operators add|list|remove|reset-password|role`: the console's accounts. */
export function register(program: Command): void {
  const operators = program
    .command('operators')
    .description('the people who sign in to the console, each an admin or an editor')

  operators
    .command('add <email>')
    .description(
      `add an operator; the password (at least ${minPasswordLength} characters) is asked for, or read from stdin`,
    )
    .requiredOption('--role <role>', 'admin (everything, plus operators) or editor (content, jobs, rebuilds)')
    .option('--password-stdin', 'read the password from stdin instead of asking')
    .action(async (email: string, flags: { role: string; passwordStdin?: boolean }) => {
      const role = checkRole(flags.role)
      const password = await newPassword(flags.passwordStdin)
      const added = await withOperators((directory) => directory.add({ email, role, password }))
      process.stdout.write(`Added ${added.email} (${added.role}). They sign in at the console with this password.\n`)
    })

  operators
    .command('list')
    .description('list the operators and their roles')
    .option('--json', 'print one JSON array')
    .action(async (flags: { json?: boolean }) => {
      const list = await withOperators((directory) => directory.list())
      if (flags.json) {
        process.stdout.write(`${JSON.stringify(list)}\n`)
        return
      }
      if (!list.length) {
        process.stdout.write(
          'No operators yet: add one with `pnpm roland operators add you@example.org --role admin`.\n',
        )
        return
      }
      for (const operator of list) process.stdout.write(`${describe(operator)}\n`)
    })

  operators
    .command('remove <email>')
    .description('remove an operator; their sessions end at once')
    .action(async (email: string) => {
      const removed = await withOperators((directory) => directory.remove({ email }))
      process.stdout.write(`Removed ${removed.email}.\n`)
    })

  operators
    .command('reset-password <email>')
    .description('set a new password (asked for, or read from stdin); the operator is signed out everywhere')
    .option('--password-stdin', 'read the password from stdin instead of asking')
    .action(async (email: string, flags: { passwordStdin?: boolean }) => {
      const password = await newPassword(flags.passwordStdin)
      const changed = await withOperators((directory) => directory.resetPassword({ email }, password))
      process.stdout.write(`New password set for ${changed.email}.\n`)
    })

  operators
    .command('role <email> <role>')
    .description('make an operator admin or editor')
    .action(async (email: string, role: string) => {
      const changed = await withOperators((directory) => directory.setRole({ email }, checkRole(role)))
      process.stdout.write(`${changed.email} is now ${changed.role}.\n`)
    })
}

// The CLI is the machine's owner: it acts as the service role, on either store.
async function withOperators<T>(fn: (directory: OperatorDirectory) => Promise<T>): Promise<T> {
  const store = await openStore({ onCreate: loadSampleData })
  try {
    return await fn(operatorDirectory(store))
  } finally {
    await store.close()
  }
}

function checkRole(role: string): OperatorRole {
  const parsed = operatorRoleSchema.safeParse(role)
  if (!parsed.success) throw new StoreError(`The role is admin or editor, not "${role}".`)
  return parsed.data
}

function newPassword(fromStdin: boolean | undefined): Promise<string> {
  return fromStdin ? readPasswordFromStdin() : promptNewPassword()
}

function describe(operator: OperatorView): string {
  return `${operator.email}  ${operator.role}${operator.disabled ? '  (disabled)' : ''}  since ${operator.created_at.slice(0, 10)}`
}
