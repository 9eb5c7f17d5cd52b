import type { AddressInfo } from 'node:net'
import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

// A real SMTP server on 127.0.0.1 for the tests (smtp-server), each message read with mailparser:
// the stand-in for the town's mail host. Addresses can be made to refuse for a while (4xx) or for
// good (5xx), and each message can be held a moment, so a sender can be killed mid-batch.

/** A received email, parsed, with its envelope recipient. */
export interface ReceivedMail {
  to: string
  mail: ParsedMail
}

/** The running stand-in. */
export interface TestSmtpServer {
  /** smtp://127.0.0.1:port, as SMTP_URL takes it. */
  url: string
  received: ReceivedMail[]
  /** Refuse a recipient with this reply code and text (421/451: later; 550: for good); null: accept. */
  refuse(address: string, code: number | null): void
  /** Waits until `count` emails have arrived, or fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>
  /** The most connections open at once. */
  readonly peakConnections: number
  /** The connection errors the server reported: a sender killed mid-message resets its connection. */
  readonly connectionErrors: Error[]
  close(): Promise<void>
}

/** Starts the SMTP stand-in; `holdMs` delays each message's acceptance. */
export async function startSmtpServer(options: { holdMs?: number } = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = []
  const refusals = new Map<string, number>()
  const waiters = new Set<() => void>()
  let open = 0
  let peak = 0
  const server = new SMTPServer({
    // Plain SMTP on loopback: no STARTTLS offered, no AUTH asked.
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onConnect(_session, callback) {
      open++
      peak = Math.max(peak, open)
      callback()
    },
    onClose() {
      open--
    },
    onRcptTo(address, _session, callback) {
      const code = refusals.get(address.address.toLowerCase())
      if (code) {
        const error = Object.assign(new Error(code >= 500 ? 'No such user here' : 'Try again later'), {
          responseCode: code,
        })
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      void simpleParser(stream)
        .then(async (mail) => {
          if (options.holdMs) await new Promise((resolve) => setTimeout(resolve, options.holdMs))
          for (const rcpt of session.envelope.rcptTo) received.push({ to: rcpt.address, mail })
          callback()
          for (const wake of waiters) wake()
        })
        .catch((error: Error) => callback(error))
    },
  })
  // smtp-server reports a connection that breaks inside a transaction (a sender killed after MAIL
  // FROM) as an 'error' event of the server, which, unheard, would be thrown in the test process. A
  // mail host logs it and goes on serving; so does this one, and keeps it for the test to read.
  const connectionErrors: Error[] = []
  server.on('error', (error: Error) => connectionErrors.push(error))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.server.address() as AddressInfo).port
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refuse(address, code) {
      if (code === null) refusals.delete(address.toLowerCase())
      else refusals.set(address.toLowerCase(), code)
    },
    async waitFor(count, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs
      while (received.length < count) {
        if (Date.now() > deadline)
          throw new Error(`Expected ${count} emails, ${received.length} arrived in ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiters.delete(wake)
            resolve()
          }
          waiters.add(wake)
          setTimeout(wake, 200)
        })
      }
      return received
    },
    get peakConnections() {
      return peak
    },
    connectionErrors,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
