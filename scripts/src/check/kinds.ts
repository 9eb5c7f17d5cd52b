// The kinds of finding of the freshness check and what operators call them: a module of its own,
// so the console's browser bundle can name them without the rules' libraries.

/** What a check can find about a listing, as the listing_findings table names it. */
export const findingKinds = [
  'website-unreachable',
  'website-error',
  'website-moved',
  'website-parked',
  'phone-invalid',
  'hours-unreadable',
  'no-photo',
  'unverified',
] as const
export type FindingKind = (typeof findingKinds)[number]

/** What each kind of finding is called where operators read it (the console, the CLI). */
export const findingLabels: Record<FindingKind, string> = {
  'website-unreachable': 'Website unreachable',
  'website-error': 'Website answers with an error',
  'website-moved': 'Website moved to another domain',
  'website-parked': 'Website parked or for sale',
  'phone-invalid': 'Phone number not valid',
  'hours-unreadable': 'Hours cannot be read',
  'no-photo': 'No photo',
  unverified: 'Not verified in a year',
}
