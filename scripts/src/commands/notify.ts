import type { Command } from 'commander'
import { mailOffReason, readMailConfig, type MailConfig } from '../notify/config.ts'
import { planDigest, queueWeeklyDigest } from '../notify/digest.ts'
import { sendOutbox } from '../notify/send.ts'
import { withStore } from './with-store.ts'

// `roland notify …` (issue 48): `send` sends what the outbox holds (the console's scheduler does
// the same; this is for a cron job), `digest` queues this week's events digest when it is due, and
// `digest --dry-run` says who would get which events without queueing anything.

function mailConfig(): MailConfig {
  const config = readMailConfig()
  if (!config) throw new Error(mailOffReason)
  return config
}

/** Adds `roland notify send|digest`. */
export function register(program: Command): void {
  const notify = program.command('notify').description('"Notify me" email: send the outbox, queue the weekly digest')

  notify
    .command('send')
    .description('send every due message of the outbox (confirmations, alerts, digests), within MAIL_RATE a minute')
    .option('--json', 'print {"sent","retried","failed","released","errors"}')
    .action(async (flags: { json?: boolean }) => {
      const config = mailConfig()
      const summary = await withStore((store) => sendOutbox({ store, config }))
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(summary)}\n`
          : `Sent ${summary.sent}, ${summary.retried} to retry later, ${summary.failed} failed` +
              (summary.released ? ` (${summary.released} taken back from a sender that stopped)` : '') +
              '.\n' +
              summary.errors.map((e) => `  message ${e.id} (${e.kind}): ${e.error}\n`).join(''),
      )
      if (summary.failed > 0) process.exitCode = 1
    })

  notify
    .command('digest')
    .description("queue this week's events digest (Monday 07:00 in the town's zone, once a week)")
    .option('--dry-run', 'say who would get which events, queueing nothing')
    .option('--json', 'print the digest as JSON')
    .action(async (flags: { dryRun?: boolean; json?: boolean }) => {
      // A dry run needs no mail server: only the site's address for the links.
      const siteUrl = flags.dryRun
        ? { siteUrl: (process.env.SITE_URL ?? 'http://127.0.0.1:4321').replace(/\/$/, '') }
        : mailConfig()
      if (flags.dryRun) {
        const plan = await withStore((store) => planDigest(store, siteUrl))
        if (flags.json) {
          process.stdout.write(`${JSON.stringify({ recipients: plan.recipients, ...plan.content })}\n`)
          return
        }
        process.stdout.write(
          `The digest of the week of ${plan.week} would go to ${plan.recipients.length} subscriber(s)` +
            (plan.recipients.length ? `: ${plan.recipients.join(', ')}` : '') +
            `.\n${plan.content.events.length} event(s):\n` +
            plan.content.events
              .map((e) => `  ${e.starts_at}  ${e.title}${e.cancelled ? ' (cancelled)' : ''}\n`)
              .join('') +
            `${plan.content.alerts.length} alert(s) in force, ${plan.content.businesses.length} new business(es).\n`,
        )
        return
      }
      const outcome = await withStore((store) => queueWeeklyDigest(store, siteUrl))
      process.stdout.write(
        flags.json
          ? `${JSON.stringify(outcome)}\n`
          : outcome.due
            ? `Queued the digest of the week of ${outcome.week} for ${outcome.queued} subscriber(s) (none if it was queued already); roland notify send sends it.\n`
            : `The digest of the week of ${outcome.week} is not due yet (Monday 07:00 in the town's zone).\n`,
      )
    })
}
