import { createServer } from 'node:http'
import type { FastifyServerOptions } from 'fastify'
import { DEFAULT_TIMEOUTS, type HttpTimeouts } from './context.ts'
import { handleClientError, handleFrameworkError } from './error-mapping.ts'

/**
 * What both listeners, public and admin, do before a route sees a request: slow clients cut off (slow headers, slow
 * bodies, a body shorter than its Content-Length, idle keep-alives: Node enforces these on its server), and what the
 * HTTP parser or the router refuses (malformed HTTP, oversized headers, undecodable URLs, too-long path segments)
 * answered in the `{error, message}` shape without echoing the URL, the connection then closed for good.
 */
export function hardenedServerOptions(timeouts: HttpTimeouts = DEFAULT_TIMEOUTS): Pick<FastifyServerOptions, 'clientErrorHandler' | 'frameworkErrors'> & {
  serverFactory: (handler: Parameters<typeof createServer>[1]) => ReturnType<typeof createServer>
} {
  return {
    serverFactory: (handler) =>
      createServer(
        {
          headersTimeout: timeouts.headersMs,
          requestTimeout: timeouts.requestMs,
          keepAliveTimeout: timeouts.keepAliveMs,
          connectionsCheckingInterval: timeouts.checkIntervalMs,
        },
        handler,
      ),
    clientErrorHandler: handleClientError,
    frameworkErrors: handleFrameworkError,
  }
}
