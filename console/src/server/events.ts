import type { IncomingMessage, ServerResponse } from 'node:http'
import { securityHeaders } from './http.ts'

/** The live updates the console pushes (Server-Sent Events), by event name. */
export interface ConsoleEvents {
  job: unknown
  progress: { id: string; progress: { phase: string; done: number; total: number } }
  log: { id: string; at: string; message: string }
  rebuild: unknown
  /** A visitor sent a suggestion: how many wait in the Inbox now. */
  submissions: { pending: number }
}

/** Keeps the connected event streams and sends each of them every event. */
export class EventHub {
  readonly #clients = new Set<ServerResponse>()
  readonly #heartbeat: NodeJS.Timeout
  readonly #onClientsChange: (count: number) => void

  /** heartbeatMs: SPEC §9's realtime heartbeat (25 s) keeps proxies from closing idle streams. */
  constructor(options: { heartbeatMs?: number; onClientsChange?: (count: number) => void } = {}) {
    this.#onClientsChange = options.onClientsChange ?? (() => {})
    this.#heartbeat = setInterval(() => {
      for (const res of this.#clients) res.write(': ping\n\n')
    }, options.heartbeatMs ?? 25_000)
    this.#heartbeat.unref()
  }

  /** How many streams are open. */
  get size(): number {
    return this.#clients.size
  }

  /** Turns a request into an event stream, opening with `hello` and the events `initial` gives. */
  open(
    req: IncomingMessage,
    res: ServerResponse,
    initial: Array<{ event: keyof ConsoleEvents; data: unknown }> = [],
  ): void {
    res.writeHead(200, {
      ...securityHeaders,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    // Reconnect after 2 s when the stream drops (EventSource's own retry).
    res.write('retry: 2000\n\n')
    for (const { event, data } of initial) res.write(format(event, data))
    this.#clients.add(res)
    this.#onClientsChange(this.#clients.size)
    const remove = () => {
      if (this.#clients.delete(res)) this.#onClientsChange(this.#clients.size)
    }
    req.on('close', remove)
    res.on('close', remove)
  }

  /** Sends an event to every open stream. */
  send<K extends keyof ConsoleEvents>(event: K, data: ConsoleEvents[K]): void {
    if (this.#clients.size === 0) return
    const text = format(event, data)
    for (const res of this.#clients) res.write(text)
  }

  /** Ends every stream. */
  close(): void {
    clearInterval(this.#heartbeat)
    for (const res of this.#clients) res.end()
    this.#clients.clear()
  }
}

function format(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`
}
