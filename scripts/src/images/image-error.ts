/** What went wrong while making a store image, as a word the CLI and the console can branch on. */
export type ImageErrorCode =
  | 'invalid-input'
  | 'not-configured'
  | 'not-found'
  | 'generation-failed'
  | 'no-image-data'
  | 'upload-failed'
  | 'record-failed'

/** Describe a failed image generation: a code, a message saying what and how to fix, and whether to stop. */
export class ImageError extends Error {
  readonly code: ImageErrorCode
  /** True when every further business would fail the same way (a bad key, an unreachable API). */
  readonly fatal: boolean

  constructor(code: ImageErrorCode, message: string, options: { fatal?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ImageError'
    this.code = code
    this.fatal = options.fatal ?? false
  }
}
