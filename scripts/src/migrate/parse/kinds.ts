// What a line of an entry can be read as: the classifier's answer, which every later stage reads.

/** What a line of an entry was read as, with the value the field takes. */
export type LineKind =
  | { kind: 'phone' }
  | { kind: 'website'; value: string }
  | { kind: 'address'; value: string }
  | { kind: 'hours'; value: string; keepsLabels?: true | undefined }
  | { kind: 'features'; value: string }
  | { kind: 'category'; value: string }
  | { kind: 'description'; value: string; bullet: boolean }
  | { kind: 'ignored' }

/** The fields that tell a business entry from a paragraph: how to reach it. */
export type ContactKind = 'phone' | 'website' | 'address'

/** Tells whether a line was read as a phone, a website or an address. */
export const isContact = (kind: LineKind | undefined): kind is LineKind & { kind: ContactKind } =>
  kind?.kind === 'phone' || kind?.kind === 'website' || kind?.kind === 'address'
