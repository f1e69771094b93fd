import type { FastifyBaseLogger, FastifyError, FastifyReply } from 'fastify'
import type { AdminErrorBody } from '../../src/admin-api/contract.ts'
import type { ErrorCode } from '../../src/common/error-codes.ts'
import { isPrebuyError } from '../../src/common/errors.ts'
import { STATUS_BY_KIND, STATUS_TITLES } from '../../src/api/http-status.ts'

/**
 * Every error of the admin API has one shape, `{error, message, code}`: `error` the status title, `message` written for
 * the operator (the CLI prints it alone), `code` a stable machine code. Typed errors bring their own code; the ones
 * below are the admin app's own. (The 503 a request gets while the daemon is shutting down is the daemon-wide one
 * from refuse-while-closing.ts, `{error, message}`.)
 */
export const adminErrorBody = (status: number, message: string, code: ErrorCode): AdminErrorBody => ({
  error: STATUS_TITLES[status] ?? (status >= 500 ? STATUS_TITLES[500]! : STATUS_TITLES[400]!),
  message,
  code,
})

export const UNAUTHORIZED = adminErrorBody(401, 'A valid operator token is required.', 'invalid_operator_token')
export const ROUTE_NOT_FOUND = adminErrorBody(404, 'No such admin route.', 'route_not_found')

/** Fastify's own refusals before a handler runs (malformed or empty JSON, wrong media type, too large). */
const FRAMEWORK_CODES: Record<number, ErrorCode> = { 400: 'invalid_body', 413: 'body_too_large', 415: 'unsupported_media_type' }

/** The admin app's error handler: typed errors by kind, fastify's refusals by status, anything else a logged 500. */
export function sendAdminError(reply: FastifyReply, error: FastifyError, log: FastifyBaseLogger): FastifyReply {
  if (isPrebuyError(error)) {
    const status = STATUS_BY_KIND[error.kind]
    if (status >= 500) log.error({ err: error }, 'admin operation failed')
    return reply.code(status).send(adminErrorBody(status, error.message, error.code))
  }
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500
  if (status === 500) {
    log.error({ err: error }, 'admin route failed')
    return reply.code(500).send(adminErrorBody(500, 'The operation failed; see the daemon log.', 'internal_error'))
  }
  return reply.code(status).send(adminErrorBody(status, error.message, FRAMEWORK_CODES[status] ?? 'invalid_request'))
}
