// An error as it crosses between a build's threads (build-thread.ts): a structured clone keeps no
// class. A module of its own, so that the catalog reader (catalog-reader.ts) can send one without
// loading build-thread.ts, whose RenderedResponse loads the fetch API's implementation (undici):
// a sixth of a second of each build's reader thread.

export interface ThreadError {
  name: string
  message: string
  stack?: string
}

/** An error as it crosses between threads. */
export function threadError(error: unknown): ThreadError {
  const { name, message, stack } = error instanceof Error ? error : new Error(String(error))
  return { name, message, stack }
}

/** The thread's error, as an Error of the same name, message and stack. */
export function revive({ name, message, stack }: ThreadError): Error {
  const error = new Error(message)
  error.name = name
  if (stack) error.stack = stack
  return error
}
