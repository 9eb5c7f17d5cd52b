/** Where a running crawl stands: a phase a person can read, and how far through it. */
export interface CrawlProgress {
  phase: string
  done: number
  total: number
}

/** Receive progress reports; the CLI draws a bar from them and the console streams them. */
export type ProgressListener = (progress: CrawlProgress) => void

/** Report progress to a listener that may be absent, so engines need no checks of their own. */
export function reporter(listener: ProgressListener | undefined): ProgressListener {
  return (progress) => listener?.(progress)
}
