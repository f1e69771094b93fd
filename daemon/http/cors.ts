import type { FastifyInstance } from 'fastify'

/**
 * CORS for browser clients (issue 24 item 1), off unless origins are configured (`cors.origins`). The API
 * authenticates with bearer tokens in the Authorization header, never cookies, so no Access-Control-Allow-Credentials
 * is sent and a browser page can only call us with a key its own code holds. Only exact origins are accepted (the
 * config refuses `*`): the allowlist is the operator's statement of which web apps are meant to call the API.
 * Header semantics: the Fetch standard's CORS protocol (https://fetch.spec.whatwg.org/#http-cors-protocol).
 */

/** The methods the public API routes answer (a preflight for another is still answered; the request then gets its 405). */
export const CORS_ALLOW_METHODS = 'GET, POST, PATCH, DELETE'
/** Request headers a browser may send: the bearer key and the JSON body's type. */
export const CORS_ALLOW_HEADERS = 'authorization, content-type'
/** Response headers a page's script may read besides the CORS-safelisted ones: the rate-limit state and back-off. */
export const CORS_EXPOSE_HEADERS = 'X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After'
/**
 * Seconds a browser may cache a preflight. Chromium caps it at 7200 and Firefox at 86400 (MDN,
 * Access-Control-Max-Age); 600 keeps an allowlist change in force within ten minutes.
 */
export const CORS_MAX_AGE_SECONDS = 600

/**
 * Adds the CORS answers to every response of `app` (register before any route). An allowed Origin gets
 * Access-Control-Allow-Origin (that origin) and -Expose-Headers; its preflight (OPTIONS with
 * Access-Control-Request-Method) is answered 204 with -Allow-Methods, -Allow-Headers and -Max-Age. Any other origin
 * gets no CORS header, so the browser withholds the response from the page. `Vary: Origin` on every response keeps
 * shared caches from serving one origin's answer to another.
 */
export function registerCors(app: FastifyInstance, origins: readonly string[]): void {
  if (origins.length === 0) return
  const allowed = new Set(origins)
  app.addHook('onRequest', async (request, reply) => {
    reply.header('vary', 'Origin')
    const origin = request.headers.origin
    if (origin === undefined || !allowed.has(origin)) return
    reply.header('access-control-allow-origin', origin)
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined) {
      return reply
        .code(204)
        .header('access-control-allow-methods', CORS_ALLOW_METHODS)
        .header('access-control-allow-headers', CORS_ALLOW_HEADERS)
        .header('access-control-max-age', String(CORS_MAX_AGE_SECONDS))
        .send()
    }
    reply.header('access-control-expose-headers', CORS_EXPOSE_HEADERS)
  })
}
