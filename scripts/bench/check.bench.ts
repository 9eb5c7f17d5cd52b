import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runCheck } from '../src/check/job.ts'
import { runMigration } from '../src/migrate/job.ts'
import { openEmbeddedStore } from '../src/store/embedded.ts'
import { closedPort } from '../test/support/free-port.ts'
import { measure, table } from './measure.ts'
import { generateRolandText } from './migrate.bench.ts'

// `roland check` over 500 businesses whose websites are local servers: 50 hosts of 10 businesses
// each, 35 answering at once, 10 slow (300 ms a request) and 5 dead (nothing listens). What it
// reports: the wall time, the most requests one host had at once (the rule is one), the most in
// flight across hosts (the rule is eight), and the peak memory.

const BUSINESSES = 500
const PER_HOST = 10
const SLOW_HOSTS = 10
const DEAD_HOSTS = 5
const SLOW_MS = 300

/** Check 500 listings against local hosts, some slow and some dead. */
export async function run(): Promise<void> {
  const hosts = BUSINESSES / PER_HOST
  const servers: Server[] = []
  const peakPerHost: number[] = []
  let inFlight = 0
  let peakInFlight = 0
  let requests = 0
  const origins: string[] = []
  try {
    for (let host = 0; host < hosts; host++) {
      if (host >= hosts - DEAD_HOSTS) {
        origins.push(`http://127.0.0.1:${await closedPort()}`)
        continue
      }
      const slow = host < SLOW_HOSTS
      let mine = 0
      peakPerHost[host] = 0
      const server = createServer((request, response) => {
        requests++
        peakPerHost[host] = Math.max(peakPerHost[host]!, ++mine)
        peakInFlight = Math.max(peakInFlight, ++inFlight)
        response.on('close', () => {
          mine--
          inFlight--
        })
        const answer = () =>
          response
            .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
            .end(
              request.method === 'HEAD' ? undefined : `<!DOCTYPE html><title>Shop ${host}</title><h1>Open daily</h1>`,
            )
        if (slow) setTimeout(answer, SLOW_MS)
        else answer()
      })
      await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
      servers.push(server)
      origins.push(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)
    }

    const store = await openEmbeddedStore()
    try {
      await runMigration({ store, source: { bytes: new TextEncoder().encode(generateRolandText(BUSINESSES)) } })
      const slugs = (await store.listBusinesses()).map((business) => business.slug)
      for (const [index, slug] of slugs.entries()) {
        const origin = origins[index % hosts]!
        await store.db.query('update businesses set website = $2 where slug = $1', [slug, `${origin}/shop/${index}`])
      }
      const before = process.memoryUsage.rss() / 2 ** 20
      const checked = await measure(() => runCheck({ store, allowPrivateNetwork: true, timeoutMs: 5000 }))
      const unreachable = checked.result.findings.filter((finding) => finding.kind === 'website-unreachable').length
      table([
        {
          businesses: checked.result.checked,
          hosts: `${hosts} (${SLOW_HOSTS} slow, ${DEAD_HOSTS} dead)`,
          'wall s': checked.seconds.toFixed(2),
          requests,
          'most at once, one host': Math.max(...peakPerHost.filter((peak) => peak !== undefined)),
          'most at once, all hosts': peakInFlight,
          'website-unreachable': unreachable,
          'RSS before MB': Math.round(before),
          'peak RSS MB': Math.round(checked.peakRssMb),
        },
      ])
    } finally {
      await store.close()
    }
  } finally {
    for (const server of servers) {
      server.closeAllConnections()
      server.close()
    }
  }
}
