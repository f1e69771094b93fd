import type { ErrorKind } from '../common/error-codes.ts'

/**
 * The one place where error kinds become HTTP statuses: the public and admin apps' error handlers send them, and the
 * OpenAPI description lists each public error code with its status.
 */
export const STATUS_BY_KIND: Record<ErrorKind, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  rate_limited: 429,
  unavailable: 503,
  internal: 500,
}

export const STATUS_TITLES: Record<number, string> = {
  400: 'Bad request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not found',
  405: 'Method not allowed',
  408: 'Request timeout',
  409: 'Conflict',
  413: 'Payload too large',
  414: 'URI too long',
  415: 'Unsupported media type',
  431: 'Request header fields too large',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
}
