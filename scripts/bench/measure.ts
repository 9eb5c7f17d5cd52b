/** Times an async function and reports the peak RSS seen while it ran (sampled every 20 ms). */
export async function measure<T>(fn: () => Promise<T>): Promise<{ result: T; seconds: number; peakRssMb: number }> {
  let peak = process.memoryUsage.rss()
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss())
  }, 20)
  const start = performance.now()
  try {
    const result = await fn()
    return {
      result,
      seconds: (performance.now() - start) / 1000,
      peakRssMb: Math.max(peak, process.memoryUsage.rss()) / 2 ** 20,
    }
  } finally {
    clearInterval(timer)
  }
}

/** Prints rows as an aligned table. */
export function table(rows: Array<Record<string, string | number>>): void {
  if (rows.length === 0) return
  const keys = Object.keys(rows[0]!)
  const cells = [keys, ...rows.map((row) => keys.map((key) => String(row[key])))]
  const widths = keys.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)))
  for (const row of cells) process.stdout.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')}\n`)
}

/** The value below which a share (0 to 1) of the times fall: 0.5 is the median, 0.95 the p95. */
export function percentile(times: readonly number[], share: number): number {
  const sorted = [...times].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))]!
}

/**
 * Counts from an environment variable of numbers separated by commas (e.g. "1000,10000"), or the
 * default; a value that is not a positive whole number stops the run, saying what to set.
 */
export function countsFromEnv(name: string, fallback: string): number[] {
  const setting = process.env[name] ?? fallback
  const values = setting.split(',').map((part) => Number(part.trim()))
  if (values.some((value) => !Number.isInteger(value) || value < 1)) {
    throw new Error(`${name} is "${setting}": set it to counts of businesses separated by commas, e.g. ${fallback}.`)
  }
  return values
}
