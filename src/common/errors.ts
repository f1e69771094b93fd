/**
 * Typed errors shared by every layer. A library throws a PrebuyError with a `kind` (what class of failure it is)
 * and a stable machine `code`; the HTTP layer maps `kind` to a status in exactly one place
 * (daemon/http/error-mapping.ts) and never inspects messages. Messages are written for the API caller: they must
 * never carry secrets, stack traces or internal paths.
 */
export type ErrorKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'unavailable' | 'internal'

export class PrebuyError extends Error {
  readonly kind: ErrorKind
  readonly code: string
  readonly details: Record<string, unknown> | undefined

  constructor(kind: ErrorKind, code: string, message: string, options: { details?: Record<string, unknown>; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'PrebuyError'
    this.kind = kind
    this.code = code
    this.details = options.details
  }
}

export const isPrebuyError = (error: unknown): error is PrebuyError => error instanceof PrebuyError
