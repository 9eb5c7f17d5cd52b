/** Why a picture was refused, as a word the CLI and the console can branch on. */
export type BadImageCode =
  'empty' | 'too-large' | 'not-an-image' | 'svg-photo' | 'unsupported-format' | 'corrupt' | 'too-many-pixels'

/** Describe a picture that cannot be a photo of the site: what is wrong with which file, and what to do. */
export class BadImageError extends Error {
  readonly code: BadImageCode
  /** The URL or file name the picture came from, as the message names it. */
  readonly source: string

  constructor(code: BadImageCode, source: string, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'BadImageError'
    this.code = code
    this.source = source
  }
}
