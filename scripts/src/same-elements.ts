/**
 * Whether two lists hold the same elements (by identity) in the same order: how a memo kept across
 * builds checks that what it was made of is still what it is asked about.
 */
export function sameElements<T>(a: readonly T[], b: readonly T[]): boolean {
  if (a.length !== b.length) return false
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false
  return true
}
