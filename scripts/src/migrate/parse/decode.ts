import { textCharacterProblem } from '../../content/schema.ts'

// Stage 1, decode: the file's bytes to text, refusing what is not a plain-text business list before
// anything in it is read.

/** The largest Roland.txt we accept: 5 MB, far above any town's list, far below a mistaken upload. */
export const MAX_FILE_BYTES = 5 * 1024 * 1024

/** What is wrong with a Roland.txt file as a whole. */
export type RolandFileProblem = 'empty' | 'too-large' | 'binary' | 'bad-character' | 'no-businesses'

/** Raised when Roland.txt cannot be read as a business list; the message says how to fix the file. */
export class RolandFileError extends Error {
  readonly problem: RolandFileProblem

  constructor(problem: RolandFileProblem, message: string) {
    super(message)
    this.name = 'RolandFileError'
    this.problem = problem
  }
}

/** Decodes the bytes of Roland.txt as UTF-8 text, rejecting empty, oversized and binary files. */
export function decodeRolandFile(bytes: Uint8Array): string {
  if (bytes.length === 0) {
    throw new RolandFileError(
      'empty',
      'Roland.txt is empty: add the businesses, one per block with a blank line between them, and upload it again.',
    )
  }
  if (bytes.length > MAX_FILE_BYTES) {
    const megabytes = (bytes.length / (1024 * 1024)).toFixed(1)
    throw new RolandFileError(
      'too-large',
      `Roland.txt is ${megabytes} MB, over the ${MAX_FILE_BYTES / 1024 / 1024} MB limit: check that it is the business list (a plain text file of a few hundred KB at most) and not another file.`,
    )
  }
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new RolandFileError(
      'binary',
      'Roland.txt is saved as UTF-16 text: open it in a text editor and save it again with the UTF-8 encoding.',
    )
  }
  const nul = bytes.indexOf(0)
  if (nul !== -1) {
    throw new RolandFileError(
      'binary',
      `Roland.txt contains binary data (a NUL byte at byte ${nul}), so it is not a plain text file: export the list as plain text (.txt, UTF-8) and upload that.`,
    )
  }
  const invalid = firstInvalidUtf8Byte(bytes)
  if (invalid !== -1) {
    const line = bytes.subarray(0, invalid).reduce((count, byte) => count + (byte === 0x0a ? 1 : 0), 1)
    throw new RolandFileError(
      'binary',
      `Roland.txt is not valid UTF-8 text (first bad byte on line ${line}): it was probably saved as Windows-1252 ("ANSI") or is not a text file; save it again with the UTF-8 encoding.`,
    )
  }
  // The decoder drops a byte-order mark, which Windows editors like to add.
  const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  if (text.trim() === '') {
    throw new RolandFileError(
      'empty',
      'Roland.txt has only blank lines: add the businesses, one per block with a blank line between them, and upload it again.',
    )
  }
  return text
}

/**
 * Refuses a file with an invisible control character (issue 43): the text fields' own rule
 * (textCharacterProblem), so what the editors refuse never comes in by the import either. The
 * whole file is refused, naming the line, rather than the character dropped: nothing is imported
 * that the operator has not seen, and a stray character often means a damaged or mis-saved file.
 * A vertical tab or form feed (Word's line and page breaks, pasted) is read as a space, as tabs are.
 */
export function refuseBadCharacters(text: string): void {
  const lines = text.split(/\r\n|\r|\n/)
  for (const [index, raw] of lines.entries()) {
    const problem = textCharacterProblem(`line ${index + 1}`, raw.replace(/[\v\f]/g, ' '))
    if (problem === null) continue
    // eslint-disable-next-line no-control-regex -- showing where the control character is
    const shown = raw.replace(/[\u0000-\u001F\u007F-\u009F]/g, '\uFFFD').trim()
    throw new RolandFileError(
      'bad-character',
      `Roland.txt ${problem}. The line, with it shown as \uFFFD: "${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown}". Nothing was imported: fix the line in a text editor and import the file again.`,
    )
  }
}

/** The offset of the first byte that is not valid UTF-8, or -1 when every byte is. */
function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const byte = bytes[i] ?? 0
    const length =
      byte < 0x80
        ? 1
        : byte >= 0xc2 && byte <= 0xdf
          ? 2
          : byte >= 0xe0 && byte <= 0xef
            ? 3
            : byte >= 0xf0 && byte <= 0xf4
              ? 4
              : 0
    if (length === 0) return i
    for (let k = 1; k < length; k += 1) {
      const next = bytes[i + k]
      if (next === undefined || (next & 0xc0) !== 0x80) return i
    }
    const second = bytes[i + 1] ?? 0
    // Overlong forms, UTF-16 surrogates and code points past U+10FFFF are invalid UTF-8 too.
    if (
      (byte === 0xe0 && second < 0xa0) ||
      (byte === 0xed && second > 0x9f) ||
      (byte === 0xf0 && second < 0x90) ||
      (byte === 0xf4 && second > 0x8f)
    )
      return i
    i += length
  }
  return -1
}
