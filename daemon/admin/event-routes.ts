import type { FastifyInstance } from 'fastify'
import { ADMIN_STREAMS } from '../../src/admin-api/admin-routes.ts'
import type { ConsoleFeed } from '../events/console-feed.ts'
import { parseRequest } from './parse-request.ts'

/** A comment line every 15 s: proxies keep the stream open and a client notices a dead daemon within a read timeout. */
export const HEARTBEAT_MS = 15_000
/** A client this far behind (bytes queued on its socket) is cut off: it reconnects with Last-Event-ID and catches up. */
const MAX_QUEUED_BYTES = 16 * 1024 * 1024

/**
 * `GET /admin/v1/events`: the console feed as server-sent events (`id`, `event` = the event's type, `data` = its JSON).
 * `Last-Event-ID` (header, or `lastEventId` in the query for clients that cannot set it) resumes a stream.
 */
export function eventRoutes(app: FastifyInstance, feed: ConsoleFeed): void {
  app.get(ADMIN_STREAMS.events.path, async (request, reply) => {
    const query = parseRequest(ADMIN_STREAMS.events.query, request.query)
    const header = request.headers['last-event-id']
    const lastEventId = (Array.isArray(header) ? header[0] : header) ?? query.lastEventId
    reply.hijack()
    const raw = reply.raw
    raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    })
    raw.write('retry: 1000\n\n')
    let open = true
    const end = () => {
      if (!open) return
      open = false
      clearInterval(heartbeat)
      unsubscribe?.()
      raw.end()
    }
    const heartbeat = setInterval(() => raw.write(': ping\n\n'), HEARTBEAT_MS)
    heartbeat.unref()
    let unsubscribe: (() => void) | undefined
    let allowance = MAX_QUEUED_BYTES
    raw.on('close', end)
    try {
      unsubscribe = await feed.subscribe({
        scope: query.scope,
        ...(query.slug === undefined ? {} : { slug: query.slug }),
        ...(lastEventId === undefined ? {} : { lastEventId }),
        send(id, event) {
          if (!open) return
          // Measured beyond the snapshot (100,000 orders weigh ~15 MB): a client still reading it is not behind.
          if (raw.writableLength > allowance) return end()
          const message = `id: ${id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`
          if (event.type === 'snapshot') allowance = MAX_QUEUED_BYTES + Buffer.byteLength(message)
          raw.write(message)
        },
        end,
      })
      if (!open) unsubscribe()
    } catch (error) {
      request.log.error({ err: error }, 'event stream failed to start')
      end()
    }
  })
}
