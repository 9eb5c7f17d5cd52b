import { once } from 'node:events'
import { connect, createServer, type AddressInfo, type Socket } from 'node:net'

/**
 * A port of 127.0.0.1 that nothing listens on now, for a server that must be known before it
 * starts (a site build needs the console's address). Not for a dead website: see closedPort.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo
      probe.close(() => resolve(port))
    })
  })
}

/**
 * A port of 127.0.0.1 that refuses connections for as long as this process runs: a dead website.
 * A port found free and let go (freePort) is free for anyone: another test's server, started by a
 * worker beside this one, took such a port in the seconds before a check reached it, and the dead
 * website answered (a check then found one problem fewer). This port is the local end of a
 * connection this process keeps open to itself: nothing listens on it, so a connection to it is
 * refused, and no other socket can bind it meanwhile. Both ends let the process end.
 */
export async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', resolve)
  })
  const client = connect((server.address() as AddressInfo).port, '127.0.0.1')
  // Both ends, before the listener goes: one still waiting to be accepted would be reset with it,
  // and the port let go.
  const [[accepted]] = (await Promise.all([once(server, 'connection'), once(client, 'connect')])) as [[Socket], unknown]
  server.close()
  for (const end of [client, accepted]) {
    end.unref()
    kept.push(end)
  }
  return client.localPort!
}

/** The connections that hold closedPort's ports. */
const kept: Socket[] = []
