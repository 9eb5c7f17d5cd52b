import { connect, createServer } from 'node:net'
import { describe, expect, test } from 'vitest'
import { closedPort } from './free-port.ts'

describe('closedPort, a dead website', () => {
  test('refuses a connection, and no server can take its port while this process runs', async () => {
    const port = await closedPort()
    const refused = await new Promise<string>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => {
        socket.destroy()
        resolve('connected')
      })
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
    })
    expect(refused).toBe('ECONNREFUSED')
    const taken = await new Promise<string>((resolve) => {
      const server = createServer()
      server.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? String(error)))
      server.listen(port, '127.0.0.1', () => server.close(() => resolve('listening')))
    })
    expect(taken).toBe('EADDRINUSE')
    // And a fetch, as the check and the crawler make them, is refused too.
    const error = await fetch(`http://127.0.0.1:${port}/`).catch((failure: Error) => failure)
    expect((error as Error & { cause?: { code?: string } }).cause?.code).toBe('ECONNREFUSED')
  })

  test('gives another port each time', async () => {
    const ports = await Promise.all([closedPort(), closedPort(), closedPort()])
    expect(new Set(ports).size).toBe(3)
  })
})
