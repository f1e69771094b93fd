import type { Socket } from 'node:net'
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify'
import { STATUS_BY_KIND, STATUS_TITLES } from '../../src/api/http-status.ts'
import type { ErrorBody } from '../../src/api/schemas.ts'
import { ERROR_CODES } from '../../src/common/error-codes.ts'
import { isPrebuyError, type PrebuyError } from '../../src/common/errors.ts'

export const RATE_LIMIT_MESSAGE = 'Rate limit exceeded. Retry after the window resets.'
const INTERNAL_MESSAGE = 'An unexpected error occurred.'

export const errorBody = (status: number, message: string, extra: Pick<ErrorBody, 'code' | 'details'> = {}): ErrorBody => ({
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
    if (error.kind === 'rate_limited' && error.code !== 'rate_limited') describeOwnLimit(reply, error)
    const message = error.kind === 'rate_limited' ? RATE_LIMIT_MESSAGE : error.message
    return reply.code(status).send(errorBody(status, message, { code: error.code, ...publicDetails(error) }))
  }
  const statusCode = (error as { statusCode?: unknown } | null)?.statusCode
  if (typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const message = FRAMEWORK_MESSAGES[statusCode] ?? STATUS_TITLES[statusCode] ?? 'Bad request'
    return reply.code(statusCode).send(errorBody(statusCode, message))
  }
  logger.error({ err: error }, 'unhandled error')
  return reply.code(500).send(errorBody(500, INTERNAL_MESSAGE))
}

/**
 * Every 429 describes the limit that refused it: a code with its own limit (withdrawals per hour) replaces the
 * X-RateLimit-* headers the request limiter set for the per-minute budget; one without a window drops them.
 */
function describeOwnLimit(reply: FastifyReply, error: PrebuyError): void {
  const own = error.details?.rateLimit as { limit?: unknown; remaining?: unknown; resetAt?: unknown } | undefined
  if (own && typeof own.limit === 'number' && typeof own.remaining === 'number' && typeof own.resetAt === 'number') {
    reply.header('x-ratelimit-limit', own.limit)
    reply.header('x-ratelimit-remaining', own.remaining)
    reply.header('x-ratelimit-reset', own.resetAt)
    return
  }
  for (const name of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) reply.removeHeader(name)
}

/** The `details` an error body carries: the problems of an invalid body or query, else the fields its code publishes. */
function publicDetails(error: PrebuyError): Pick<ErrorBody, 'details'> {
  // validate.ts puts issuesOf(...) there: the {path, message} list the schema publishes.
  if (error.kind === 'bad_request' && error.details?.issues) return { details: error.details.issues as ErrorBody['details'] }
  const fields = (ERROR_CODES[error.code] as { details?: readonly string[] }).details
  if (!fields || !error.details) return {}
  const details: Record<string, string> = {}
  for (const field of fields) {
    const value = error.details[field]
    if (value !== undefined && value !== null) details[field] = String(value)
  }
  return Object.keys(details).length > 0 ? { details } : {}
}

/**
 * What Node's HTTP parser refused before fastify saw a request (a malformed request line, headers over the limit, a
 * request that timed out), answered in the error shape instead of fastify's own `{error: 'Bad Request', message:
 * 'Client Error', statusCode}`; the connection is closed.
 */
export function clientErrorResponse(error: { code?: string }): { status: number; body: ErrorBody } {
  if (error.code === 'HPE_HEADER_OVERFLOW') return { status: 431, body: errorBody(431, 'The request headers are too large.') }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, body: errorBody(408, 'The request took too long to arrive.') }
  return { status: 400, body: errorBody(400, 'Malformed HTTP request.') }
}

/** fastify's clientErrorHandler: the response above, written on the raw socket (when it can still be written). */
export function handleClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const { status, body } = clientErrorResponse(error)
  const json = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_TITLES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  )
  // Closed for good once answered: end() alone only half-closes, and a client that kept dripping bytes (and never
  // read) kept the connection open for as long as it kept sending. Anything it sends after the answer, or the answer
  // still unread after a few seconds, ends the connection (a well-behaved client has closed its side by then).
  socket.on('data', () => socket.destroy())
  socket.resume()
  setTimeout(() => socket.destroy(), CLOSE_AFTER_ANSWER_MS).unref()
}

/** How long a connection answered with a client error may stay before it is destroyed, whatever the client does. */
const CLOSE_AFTER_ANSWER_MS = 5_000

/**
 * fastify's frameworkErrors: a URL its router cannot decode (`%zz`) or a path segment over the router's length limit.
 * Answered in the error shape without echoing the URL back (fastify's own message quotes it whole).
 */
export function handleFrameworkError(error: Error & { code?: string }, _request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') return reply.code(414).send(errorBody(414, 'A path segment is too long.'))
  return reply.code(400).send(errorBody(400, 'Malformed URL.'))
}
