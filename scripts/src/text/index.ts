// The one home of small text helpers more than one part of the project needs (issue 51): escaping
// text for a regular expression (the import's address patterns, the site's structured data) and
// whether an address already says where it is (the site's map links and .ics locations). Free of
// Node: the site's islands and the console may use it. Time-zone helpers are in ../time/zone.ts.

/** Escapes the characters a regular expression treats as syntax, so a text matches itself. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

/** The parts of a town an address may name. */
export interface TownPlace {
  name: string
  state: string
  state_code: string
}

/**
 * Says whether an address already says where it is, so the town need not be added: it names the
 * town's state (spelt out or its code) or ends in a ZIP ("11901 Pinnacle Valley Rd, Little Rock,
 * AR 72223"), or its last part is the town ("1 Main St, Roland"). A place whose name only starts
 * with the town's ("Roland Community Center") does not.
 */
export function addressNamesTown(address: string, town: TownPlace): boolean {
  const state = `\\b(?:${escapeRegExp(town.state_code.trim())}|${escapeRegExp(town.state.trim())})\\b`
  const zip = '\\b\\d{5}(?:-\\d{4})?\\s*$'
  const lastPart = new RegExp(`,\\s*${escapeRegExp(town.name.trim())}\\.?\\s*$`, 'i')
  // The state as written (its code in capitals: a two-letter code in lower case is a word, not a state); the town in any case.
  return new RegExp(`${state}|${zip}`).test(address) || lastPart.test(address)
}
