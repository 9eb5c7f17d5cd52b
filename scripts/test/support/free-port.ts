import { createServer, type AddressInfo } from 'node:net'

/**
 * A port of 127.0.0.1 that nothing listens on now: for a server that must be known before it
 * starts (a site build needs the console's address), or for a dead website.
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
