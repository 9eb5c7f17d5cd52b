/**
 * `compute`, each answer kept by `keyOf` of its arguments: a build asks the same few thousand things
 * (a time of day, a phone number) over and over. Past `limit` answers it forgets them all and starts
 * again, so that text it was never meant for cannot grow it without end.
 */
export function remembered<A extends unknown[], T>(
  compute: (...args: A) => T,
  keyOf: (...args: A) => string,
  limit: number,
): (...args: A) => T {
  const known = new Map<string, T>()
  return (...args) => {
    const key = keyOf(...args)
    if (known.has(key)) return known.get(key)!
    const value = compute(...args)
    if (known.size >= limit) known.clear()
    known.set(key, value)
    return value
  }
}
