import { describe, expect, test } from 'vitest'
import { decodeRolandFile, MAX_FILE_BYTES, refuseBadCharacters, RolandFileError } from './decode.ts'

const bytes = (text: string) => new TextEncoder().encode(text)

/** The problem a RolandFileError names, or the error when another was thrown. */
function problemOf(action: () => unknown): unknown {
  try {
    action()
  } catch (error) {
    return error instanceof RolandFileError ? error.problem : error
  }
  return 'no error'
}

describe('decodeRolandFile', () => {
  test('decodes UTF-8 text and drops a byte-order mark', () => {
    expect(decodeRolandFile(new Uint8Array([0xef, 0xbb, 0xbf, ...bytes('Café Rio\n')]))).toBe('Café Rio\n')
  })

  test('refuses an empty, blank, oversized, UTF-16 or binary file, saying which', () => {
    expect(problemOf(() => decodeRolandFile(new Uint8Array()))).toBe('empty')
    expect(problemOf(() => decodeRolandFile(bytes(' \n\n')))).toBe('empty')
    expect(problemOf(() => decodeRolandFile(new Uint8Array(MAX_FILE_BYTES + 1).fill(0x41)))).toBe('too-large')
    expect(problemOf(() => decodeRolandFile(new Uint8Array([0xff, 0xfe, 0x41, 0])))).toBe('binary')
    expect(problemOf(() => decodeRolandFile(bytes('Joe\u0000Cafe')))).toBe('binary')
  })

  test('names the line of the first byte that is not UTF-8', () => {
    const text = new Uint8Array([...bytes('Joe Cafe\nCaf'), 0xe9, ...bytes('\n')])
    expect(() => decodeRolandFile(text)).toThrow(/first bad byte on line 2/)
  })

  test('refuses overlong forms and UTF-16 surrogates written as UTF-8', () => {
    expect(problemOf(() => decodeRolandFile(new Uint8Array([0xc0, 0xaf])))).toBe('binary')
    expect(problemOf(() => decodeRolandFile(new Uint8Array([0xed, 0xa0, 0x80])))).toBe('binary')
  })
})

describe('refuseBadCharacters', () => {
  test('lets tabs, vertical tabs and form feeds through', () => {
    expect(() => refuseBadCharacters('Joe Cafe\tcoffee\vand cake\f')).not.toThrow()
  })

  test('refuses a control character, naming its line and showing where it is', () => {
    expect(() => refuseBadCharacters('Joe Cafe\nCall \u0007 us')).toThrow(/line 2.*"Call \uFFFD us"/s)
  })
})
