import type { Server } from 'node:http'
import type { FastifyInstance } from 'fastify'

/** How long shutdown waits for in-flight requests before cutting connections. */
export const DEFAULT_DRAIN_MS = 10_000

/**
 * Graceful close for a fastify app. fastify's own close() neither reliably waits for a request whose body is still
 * arriving nor ends keep-alive connections that turn idle after close began (a client holding one would delay
 * shutdown by the keep-alive timeout). So requests are counted on the raw server from the start, and close:
 * stops accepting, waits until no request is in flight (or the drain time is up), then ends every connection.
 */
export function trackForGracefulClose(app: FastifyInstance, drainMs = DEFAULT_DRAIN_MS): { close(): Promise<void> } {
  const server: Server = app.server
  let inFlight = 0
  let onDrained: (() => void) | undefined
  server.on('request', (_request, response) => {
    inFlight++
    let done = false
    const finish = () => {
      if (done) return
      done = true
      inFlight--
      if (inFlight === 0) onDrained?.()
    }
    response.once('finish', finish)
    response.once('close', finish)
  })
  return {
    async close() {
      const closing = app.close()
      if (inFlight > 0) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, drainMs)
          onDrained = () => {
            clearTimeout(timer)
            resolve()
          }
        })
      }
      server.closeAllConnections()
      await closing
    },
  }
}
