import { defaultBusinessCategory } from '../catalog/types.ts'
import type { OsmPresetEntry, OsmPresets } from '../migrate/osm-vocabulary.ts'
import presetsJson from '../migrate/osm-presets.json' with { type: 'json' }
import { keysOf } from './text.ts'

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

let triggers: Map<string, Trigger[]> | undefined

/** The presets' names and terms as keys, filed under their first key (made once, on first use). */
function triggersByFirstKey(): Map<string, Trigger[]> {
  if (triggers) return triggers
  triggers = new Map()
  for (const preset of presets) {
    const phrases = [
      ...preset.names.map((name) => ({ name, term: false })),
      ...preset.terms.map((name) => ({ name, term: true })),
    ]
    for (const { name, term } of phrases) {
      const keys = keysOf(name)
      if (keys.length === 0 || (keys.length === 1 && name.length < shortestSingleWord)) continue
      const trigger = { preset, keys, weak: term && keys.length === 1 }
      const list = triggers.get(keys[0]!)
      if (list) list.push(trigger)
      else triggers.set(keys[0]!, [trigger])
    }
  }
  return triggers
}

/** What the presets read of a business. */
export interface PresetInput {
  name: string
  category: string
  short_description?: string | null
  full_description?: string | null
  services?: readonly string[]
}

/** The presets a business is (see above), by id. */
export function presetsOf(business: PresetInput): OsmPresetEntry[] {
  const texts = [business.name, business.short_description, business.full_description, ...(business.services ?? [])]
  const keys = new Set(texts.flatMap((text) => (text ? keysOf(text) : [])))
  const inName = new Set(keysOf(business.name))
  const strong = new Set<OsmPresetEntry>()
  const weak = new Set<OsmPresetEntry>()
  const anyCategory = business.category === defaultBusinessCategory
  const byFirstKey = triggersByFirstKey()
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

// A rebuild indexes every business again, most of them unchanged: their terms are kept, by their words.
const termsByText = new Map<string, string[]>()

/** What a business is, as the index holds it: its presets' names and terms, each once. */
export function presetTerms(business: PresetInput): string[] {
  const text = [
    business.category,
    business.name,
    business.short_description,
    business.full_description,
    ...(business.services ?? []),
  ].join('\u0000')
  let terms = termsByText.get(text)
  if (terms) return terms
  terms = [...new Set(presetsOf(business).flatMap((preset) => [...preset.names, ...preset.terms]))]
  if (termsByText.size >= 200_000) termsByText.clear()
  termsByText.set(text, terms)
  return terms
}
