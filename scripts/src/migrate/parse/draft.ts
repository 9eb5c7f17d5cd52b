import type { LineKind } from './kinds.ts'
import { BULLET } from './text.ts'

// The business as it is read, line by line, before it is finished (finish.ts).

/** A business being read: the fields found so far, as typed. */
export type Draft = {
  line: number
  name: string
  phone: string | null
  extraPhones: string[]
  website: string | null
  address: string | null
  hours: string | null
  /** The hours read so far start with a label of their own ('Winter: …'): what follows is another schedule. */
  hoursLabelled: boolean
  hoursWarnings: string[]
  /** The services as typed, first spelling kept, by their lower-case name. */
  services: Map<string, string>
  paragraphs: string[]
  categoryLabel: string | null
  warnings: string[]
}

/** What a block of the file turned out to be: a business, a paragraph of the one above, or neither. */
export type BlockResult =
  { kind: 'business'; draft: Draft } | { kind: 'paragraph'; text: string } | { kind: 'skip'; reason: string }

/** Where reading the lines below a name has got to (see readLines in block.ts). */
export type LineState = {
  /** How many contact or hours fields were found. */
  fields: number
  /** The description lines read since the last paragraph ended. */
  paragraph: string[]
  /** What the line above was read as. */
  previous: LineKind['kind'] | null
  /**
   * A features list goes on over bullet lines; over plain lines too after an empty 'Features:' label
   * ('list'), or for the next line when the last one ended with a comma ('comma').
   */
  inFeatures: 'bullets' | 'list' | 'comma' | null
  hoursSeen: boolean
}

/** Starts the draft of a business named on the given line. */
export function newDraft(name: string, line: number): Draft {
  return {
    line,
    name,
    phone: null,
    extraPhones: [],
    website: null,
    address: null,
    hours: null,
    hoursLabelled: false,
    hoursWarnings: [],
    services: new Map(),
    paragraphs: [],
    categoryLabel: null,
    warnings: [],
  }
}

/** Adds the services of a features line ('Wi-Fi, patio; and parking'), each once, first spelling kept. */
export function addServices(draft: Draft, text: string): void {
  for (const part of text.split(/[,;•·|]/)) {
    const service = part
      .replace(BULLET, '')
      .replace(/^\s*and\s+/i, '')
      .replace(/[.\s]+$/, '')
      .trim()
    if (service === '') continue
    const key = service.toLowerCase()
    if (!draft.services.has(key)) draft.services.set(key, service)
  }
}
