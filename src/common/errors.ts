import { ERROR_CODES, type ErrorCode, type ErrorKind } from './error-codes.ts'

/**
 * Typed errors shared by every layer. A library throws a PrebuyError with a stable machine `code` from the catalogue
 * (error-codes.ts), which also gives its `kind` (what class of failure it is); the HTTP layer maps `kind` to a status
 * in exactly one place (daemon/http/error-mapping.ts) and never inspects messages. Messages are written for the API
 * caller: they must never carry secrets, stack traces or internal paths.
 */
export class PrebuyError extends Error {
  readonly kind: ErrorKind
  readonly code: ErrorCode
  readonly details: Record<string, unknown> | undefined

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'PrebuyError'
    this.kind = ERROR_CODES[code].kind
    this.code = code
    this.details = options.details
  }
}

export const isPrebuyError = (error: unknown): error is PrebuyError => error instanceof PrebuyError
