import { defaultBusinessCategory } from '../catalog/types.ts'
import type { OsmPresetEntry, OsmPresets } from '../migrate/osm-vocabulary.ts'
import presetsJson from '../migrate/osm-presets.json' with { type: 'json' }
import { keysOf, wordKey, WordKeys } from './text.ts'

// What a business is, in the words visitors use: the OpenStreetMap presets (osm-presets.json, made
// with the import's category vocabulary from the same schema) whose name or alias, or a search term
// of several words, the business's own words hold, in any order: a hair studio whose description
// says 'salon' is a 'hair salon', so a 'hairdresser' and a 'hair stylist'; a pet grooming shop is a
// 'pet groomer'. A term of one word ('bookkeeper') says less, and counts only in the business's name
// and only when nothing says more (a pet groomer's 'grooming' does not make it a barber). Only the
// presets of the business's category count (any category for a 'Business'), so a diner selling
// 'tools' is no hardware store.

const presets = (presetsJson as OsmPresets).presets

// A single word names a kind of place only from five letters on ('dog' and 'cat' describe a groomer,
// they do not make a business one).
const shortestSingleWord = 5

interface Trigger {
  preset: OsmPresetEntry
  keys: string[]
  /** A term of one word: it counts in the name only, and only when no other trigger matched. */
  weak: boolean
}

/** The presets' names and terms as keys, filed under their first key. */
function triggersByFirstKey(): ReadonlyMap<string, readonly Trigger[]> {
  const triggers = new Map<string, Trigger[]>()
  // Names and terms share most of their words: each is stemmed once, for this table only.
  const wordKeys = new WordKeys()
  for (const preset of presets) {
    const phrases = [
      ...preset.names.map((name) => ({ name, term: false })),
      ...preset.terms.map((name) => ({ name, term: true })),
    ]
    for (const { name, term } of phrases) {
      const keys = keysOf(name, wordKeys.of)
      if (keys.length === 0 || (keys.length === 1 && name.length < shortestSingleWord)) continue
      const trigger = { preset, keys, weak: term && keys.length === 1 }
      const list = triggers.get(keys[0]!)
      if (list) list.push(trigger)
      else triggers.set(keys[0]!, [trigger])
    }
  }
  return triggers
}

// Made from osm-presets.json the first time a business is read against it (0.1–0.2 s), and never
// changed: a vocabulary, not a cache. The words of the businesses read against it are keyed by the
// caller's WordKeys. Not when the module loads: a build whose catalog reader made the search index
// loads this module on its main thread and never reads a business against it (70 ms of a rebuild).
let byFirstKey: ReadonlyMap<string, readonly Trigger[]> | undefined

/** What the presets read of a business. */
export interface PresetInput {
  name: string
  category: string
  short_description?: string | null
  full_description?: string | null
  services?: readonly string[]
}

/**
 * The presets a business is (see above), by id. A caller reading many businesses (an index build, a
 * request for the console's list) passes its WordKeys's `of`, so each distinct word is stemmed once.
 */
export function presetsOf(business: PresetInput, keyOf: (word: string) => string = wordKey): OsmPresetEntry[] {
  const texts = [business.name, business.short_description, business.full_description, ...(business.services ?? [])]
  const keys = new Set(texts.flatMap((text) => (text ? keysOf(text, keyOf) : [])))
  const inName = new Set(keysOf(business.name, keyOf))
  const strong = new Set<OsmPresetEntry>()
  const weak = new Set<OsmPresetEntry>()
  const anyCategory = business.category === defaultBusinessCategory
  byFirstKey ??= triggersByFirstKey()
  for (const key of keys) {
    for (const { preset, keys: needed, weak: isWeak } of byFirstKey.get(key) ?? []) {
      if (strong.has(preset) || (!anyCategory && preset.category !== business.category)) continue
      if (isWeak) {
        if (inName.has(key)) weak.add(preset)
      } else if (needed.every((other) => keys.has(other))) strong.add(preset)
    }
  }
  return [...(strong.size > 0 ? strong : weak)].sort((a, b) => (a.id < b.id ? -1 : 1))
}

/** What a business is, as the index holds it: its presets' names and terms, each once (`keyOf` as presetsOf's). */
export function presetTerms(business: PresetInput, keyOf: (word: string) => string = wordKey): string[] {
  return [...new Set(presetsOf(business, keyOf).flatMap((preset) => [...preset.names, ...preset.terms]))]
}
