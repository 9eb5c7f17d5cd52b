import { InvalidArgumentError, type Command } from 'commander'
import { checkReport, runCheck, type CheckReport } from '../check/job.ts'
import { findingKinds, findingLabels } from '../check/kinds.ts'
import { loadSampleData } from '../migrate/sample.ts'
import { openStore } from '../store/index.ts'
import { terminalProgress } from './progress.ts'

interface CheckFlags {
  business?: string
  json?: boolean
  report?: boolean
  timeout?: number
  allowPrivateNetwork?: boolean
}

function seconds(value: string): number {
  const parsed = Number(value)
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed > 120) {
    throw new InvalidArgumentError('give the seconds each request may take, from 0.1 to 120 (default 10)')
  }
  return parsed
}

/** Adds `roland check [--business SLUG] [--json] [--report]`: the freshness check of every active listing. */
export function register(program: Command): void {
  program
    .command('check')
    .description(
      'check every active listing (its website, phone, hours, photo and verification) and record what needs attention',
    )
    .option('--business <slug>', 'check this business only')
    .option('--json', 'print {"checked": N, "findings": [{"business", "kind", "detail"}]}')
    .option('--report', 'print the findings the last checks stored, fetching nothing')
    .option('--timeout <seconds>', 'time each website request may take (default 10)', seconds)
    .option(
      '--allow-private-network',
      'let the check reach 127.0.0.1 and private addresses (local test sites); also ROLAND_ALLOW_PRIVATE_NETWORK=1',
    )
    .action(async (flags: CheckFlags) => {
      const store = await openStore({ onCreate: loadSampleData })
      const progress = terminalProgress()
      try {
        const report = flags.report
          ? await checkReport(store, flags.business)
          : await runCheck({
              store,
              slug: flags.business,
              allowPrivateNetwork:
                flags.allowPrivateNetwork === true || process.env.ROLAND_ALLOW_PRIVATE_NETWORK === '1',
              timeoutMs: flags.timeout === undefined ? undefined : flags.timeout * 1000,
              siteUrl: process.env.SITE_URL,
              onEvent: flags.json ? undefined : progress,
            })
        progress.done()
        const { checked, findings } = report
        process.stdout.write(flags.json ? `${JSON.stringify({ checked, findings })}\n` : describe(report))
      } finally {
        progress.done()
        await store.close()
      }
    })
}

function describe(report: CheckReport): string {
  const lines = [
    `Checked ${report.checked} listing${report.checked === 1 ? '' : 's'}: ` +
      (report.findings.length === 0
        ? 'nothing needs attention.'
        : `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}.`),
  ]
  for (const kind of findingKinds) {
    const ofKind = report.findings.filter((finding) => finding.kind === kind)
    if (ofKind.length === 0) continue
    lines.push(`${findingLabels[kind]} (${kind}, ${ofKind.length})`)
    for (const finding of ofKind) lines.push(`  ${finding.business}: ${finding.detail}`)
  }
  return `${lines.join('\n')}\n`
}
