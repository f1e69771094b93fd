import type { FastifyBaseLogger, FastifyReply } from 'fastify'
import { STATUS_BY_KIND, STATUS_TITLES } from '../../src/api/http-status.ts'
import { isPrebuyError } from '../../src/common/errors.ts'

export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Retry after the window resets.'
const INTERNAL_MESSAGE = 'An unexpected error occurred.'

export interface ErrorBody {
  error: string
  message: string
  code?: string
  details?: unknown
}

export const errorBody = (status: number, message: string, extra: { code?: string; details?: unknown } = {}): ErrorBody => ({
  error: STATUS_TITLES[status] ?? (status >= 500 ? 'Internal server error' : 'Bad request'),
  message,
  ...extra,
})

/** Framework errors (parsing, size, media type) carry a statusCode; their own messages may name internals. */
const FRAMEWORK_MESSAGES: Record<number, string> = {
  400: 'Invalid request body',
  413: 'Request body is too large.',
  415: 'Content-Type must be application/json.',
}

/** Sends any thrown value as `{error, message}`; a 500 says nothing about what went wrong inside. */
export function sendError(reply: FastifyReply, error: unknown, logger: FastifyBaseLogger): FastifyReply {
  if (isPrebuyError(error)) {
    const status = STATUS_BY_KIND[error.kind]
    if (error.kind === 'internal') {
      logger.error({ err: error }, 'internal error')
      return reply.code(status).send(errorBody(status, INTERNAL_MESSAGE))
    }
    if ((error.kind === 'unavailable' || error.kind === 'rate_limited') && typeof error.details?.retryAfterSeconds === 'number') {
      reply.header('retry-after', String(error.details.retryAfterSeconds))
    }
    const message = error.kind === 'rate_limited' ? RATE_LIMIT_MESSAGE : error.message
    const details = error.kind === 'bad_request' && error.details?.issues ? { details: error.details.issues } : {}
    return reply.code(status).send(errorBody(status, message, { code: error.code, ...details }))
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const message = FRAMEWORK_MESSAGES[statusCode] ?? STATUS_TITLES[statusCode] ?? 'Bad request'
    return reply.code(statusCode).send(errorBody(statusCode, message))
  }
  logger.error({ err: error }, 'unhandled error')
  return reply.code(500).send(errorBody(500, INTERNAL_MESSAGE))
}
