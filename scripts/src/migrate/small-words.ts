/** Words a business name leaves in lower case: 'Bait and Tackle', 'Pies on the Square'. */
export const SMALL_WORDS: ReadonlySet<string> = new Set([
  'a',
  'an',
  'and',
  'the',
  'of',
  'on',
  'at',
  'in',
  'for',
  'by',
  'to',
  'n',
  'or',
  'with',
  '&',
])
