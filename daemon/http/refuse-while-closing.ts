import type { FastifyInstance } from 'fastify'
import { errorBody } from './error-mapping.ts'

/**
 * Once close() began, a request still arriving on an open keep-alive connection gets a 503 in the service's error
 * shape (`{error, message}`) and the connection is closed. Used instead of fastify's `return503OnClosing`, whose body
 * has its own shape (an extra `statusCode`, its own wording). Requests already in flight finish normally.
 */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return
    return reply
      .code(503)
      .header('connection', 'close')
      .header('retry-after', '5')
      .send(errorBody(503, 'The service is shutting down; retry in a few seconds.'))
  })
}
