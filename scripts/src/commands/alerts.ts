import type { Command } from 'commander'
import { createAlert, endAlert, listAlerts, publishAlert, type AlertOutcome } from '../content/alerts.ts'
import { alertCreateSchema, type AlertRow } from '../content/schema-base.ts'
import { automationActor } from '../operators/schema.ts'
import { openStore } from '../store/index.ts'

// `roland alerts list|publish|end` (issue 48): the console's Alerts screen from a shell or a cron
// job, through the same functions (audited, refused when they break a rule). The site shows a
// change at its next rebuild: the console queues one at once for its own changes; after these,
// run `pnpm roland rebuild` (or let the console's hourly look at the alerts find them).

const rebuildHint = 'The site shows it after the next rebuild: `pnpm roland rebuild`.'

/** One alert as a line: its id, status, level, and title. */
const line = (alert: AlertRow) =>
  `${alert.id}  ${alert.status.padEnd(9)} ${alert.level.padEnd(9)} ${alert.title}${alert.ends_at ? `  (until ${alert.ends_at})` : ''}`

/** The alert of an outcome, or an error that says why there is none. */
function saved(outcome: AlertOutcome, id?: string): AlertRow {
  if (outcome.status === 'ok') return outcome.row
  if (outcome.status === 'not_found') throw new Error(`No alert with id ${id ?? ''}: see \`pnpm roland alerts list\`.`)
  if (outcome.status === 'conflict') throw new Error('The alert changed while this ran: run the command again.')
  throw new Error(outcome.message)
}

function print(alert: AlertRow, json: boolean | undefined, done: string): void {
  process.stdout.write(json ? `${JSON.stringify({ alert })}\n` : `${done}: ${line(alert)}\n${rebuildHint}\n`)
}

/** Adds `roland alerts list|publish|end`. */
export function register(program: Command): void {
  const alerts = program.command('alerts').description('town alerts: the banner on every page, /alerts and the feeds')

  alerts
    .command('list')
    .description('list every alert, newest first: id, status, level, title')
    .option('--json', 'print {"alerts": [...]} as the console API answers it')
    .action(async (flags: { json?: boolean }) => {
      const store = await openStore()
      try {
        const rows = await listAlerts(store)
        if (flags.json) process.stdout.write(`${JSON.stringify({ alerts: rows })}\n`)
        else process.stdout.write(rows.length ? `${rows.map(line).join('\n')}\n` : 'No alerts.\n')
      } finally {
        await store.close()
      }
    })

  alerts
    .command('publish [id]')
    .description('publish a draft by its id, or a new alert from --title and --level')
    .option('--title <text>', 'a new alert: its title (at most 120 characters)')
    .option('--level <level>', 'a new alert: emergency, advisory or notice')
    .option('--kind <kind>', 'a new alert: weather, water, road, power, fire, health, safety or other')
    .option('--area <text>', 'a new alert: which part of town (default the whole town)')
    .option('--body <markdown>', 'a new alert: its text, in Markdown')
    .option('--ends-at <iso>', 'a new alert: when it stops showing, ISO 8601 with offset')
    .option('--json', 'print {"alert": {...}}')
    .action(
      async (
        id: string | undefined,
        flags: {
          title?: string
          level?: string
          kind?: string
          area?: string
          body?: string
          endsAt?: string
          json?: boolean
        },
      ) => {
        const fields = id
          ? null
          : alertCreateSchema.safeParse({
              title: flags.title,
              level: flags.level,
              ...(flags.kind ? { kind: flags.kind } : {}),
              ...(flags.area ? { area: flags.area } : {}),
              ...(flags.body ? { body: flags.body } : {}),
              ...(flags.endsAt ? { ends_at: flags.endsAt } : {}),
              publish: true,
            })
        if (fields && !fields.success) {
          throw new Error(`${fields.error.issues[0]?.message ?? 'Invalid alert'} (give an id, or --title and --level)`)
        }
        const store = await openStore()
        try {
          const outcome = fields
            ? await createAlert(store, fields.data, automationActor)
            : await publishAlert(store, id!, null, automationActor)
          print(saved(outcome, id), flags.json, 'Published')
        } finally {
          await store.close()
        }
      },
    )

  alerts
    .command('end <id>')
    .description('give the all clear: the alert leaves the banner, its page says All clear')
    .option('--message <text>', 'the all clear note, such as "The water is safe to drink again."')
    .option('--json', 'print {"alert": {...}}')
    .action(async (id: string, flags: { message?: string; json?: boolean }) => {
      const store = await openStore()
      try {
        print(
          saved(await endAlert(store, id, flags.message?.trim() || null, null, automationActor), id),
          flags.json,
          'Ended',
        )
      } finally {
        await store.close()
      }
    })
}
