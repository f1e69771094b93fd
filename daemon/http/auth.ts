import type { FastifyReply, FastifyRequest } from 'fastify'
import { PrebuyError } from '../../src/common/errors.ts'
import type { KeyService } from '../../src/services/key-service.ts'
import { RATE_LIMIT_MESSAGE } from './error-mapping.ts'
import type { RateLimiter, RateLimitVerdict } from './rate-limit.ts'

const BEARER = /^Bearer[ \t]+(\S+)[ \t]*$/i

export function setRateLimitHeaders(reply: FastifyReply, verdict: RateLimitVerdict): void {
  reply.header('x-ratelimit-limit', verdict.limit)
  reply.header('x-ratelimit-remaining', verdict.remaining)
  reply.header('x-ratelimit-reset', verdict.resetAt)
  if (!verdict.allowed) reply.header('retry-after', verdict.retryAfterSeconds)
}

export function enforceRateLimit(reply: FastifyReply, verdict: RateLimitVerdict): void {
  setRateLimitHeaders(reply, verdict)
  if (!verdict.allowed) throw new PrebuyError('rate_limited', RATE_LIMIT_MESSAGE)
}

/**
 * onRequest hook of the authenticated scope: bearer key -> key record (401 otherwise), then the per-key window.
 * It runs before the body is parsed, so unauthenticated callers cost no parsing.
 */
export function createAuthHook(keys: KeyService, limiter: RateLimiter) {
  return async function authenticate(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization
    const match = header === undefined ? null : BEARER.exec(header)
    if (!match?.[1]) {
      reply.header('www-authenticate', 'Bearer')
      throw new PrebuyError('missing_key', 'An API key is required: Authorization: Bearer <API_KEY>.')
    }
    const key = await keys.authenticate(match[1])
    if (!key) {
      reply.header('www-authenticate', 'Bearer error="invalid_token"')
      throw new PrebuyError('invalid_key', 'The API key is invalid or revoked.')
    }
    request.prebuyKey = key
    enforceRateLimit(reply, limiter.hit(key.id))
  }
}
