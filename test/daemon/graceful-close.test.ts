import { once } from 'node:events'
import { connect, type AddressInfo } from 'node:net'
import Fastify from 'fastify'
import { describe, expect, it } from 'vitest'
import { DEFAULT_DRAIN_MS, trackForGracefulClose } from '../../daemon/process/track-for-graceful-close.ts'
import { refuseWhileClosing } from '../../daemon/http/refuse-while-closing.ts'

async function startApp(drainMs?: number) {
  const app = Fastify({ return503OnClosing: true })
  app.post('/echo', async (request) => ({ got: request.body }))
  app.post('/slow', async () => {
    await new Promise((resolve) => setTimeout(resolve, 300))
    return { slow: true }
  })
  const tracked = trackForGracefulClose(app, drainMs)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return { app, tracked, port: (app.server.address() as AddressInfo).port }
}

describe('trackForGracefulClose', () => {
  it('finishes a request whose body is still arriving when close begins', async () => {
    const { app, tracked, port } = await startApp()
    const body = JSON.stringify({ a: 'hello world' })
    const received = once(app.server, 'request')
    const socket = connect(port, '127.0.0.1')
    await once(socket, 'connect')
    let response = ''
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()))
    socket.write(`POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`)
    await received
    let closed = false
    const closing = tracked.close().then(() => (closed = true))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(closed).toBe(false)
    // write, not end: a half-closed socket tells the server the client left.
    socket.write(body.slice(5))
    await closing
    if (!socket.closed) await once(socket, 'close')
    expect(response).toMatch(/^HTTP\/1\.1 200 /)
    expect(response).toContain('{"got":{"a":"hello world"}}')
  })

  it('is not held up by a keep-alive connection once its request is answered', async () => {
    const { app, tracked, port } = await startApp()
    const received = once(app.server, 'request')
    const pending = fetch(`http://127.0.0.1:${port}/slow`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' })
    await received
    const started = Date.now()
    await tracked.close()
    // Held, close would last the drain time (10 s) or fastify's keep-alive timeout (72 s); done, about the slow
    // request's 300 ms. Half the drain tells them apart on any machine (the former 2 s was a guess at its speed).
    expect(Date.now() - started).toBeLessThan(DEFAULT_DRAIN_MS / 2)
    expect((await pending).status).toBe(200)
  })

  it('cuts a request that does not finish within the drain time', async () => {
    const { app, tracked, port } = await startApp(200)
    const received = once(app.server, 'request')
    const socket = connect(port, '127.0.0.1')
    await once(socket, 'connect')
    socket.on('error', () => undefined)
    socket.write('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{')
    await received
    const started = Date.now()
    await tracked.close()
    // Cut at its 200 ms drain, not at the default drain (10 s) nor never: half the default tells them apart.
    expect(Date.now() - started).toBeLessThan(DEFAULT_DRAIN_MS / 2)
    if (!socket.closed) await once(socket, 'close')
    expect(socket.closed).toBe(true)
  })

  it('answers a request arriving on a kept-alive connection during close with a 503 in the service’s error shape', async () => {
    const app = Fastify({ return503OnClosing: false })
    refuseWhileClosing(app)
    app.post('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      return { slow: true }
    })
    app.get('/late', async () => ({ late: true }))
    const tracked = trackForGracefulClose(app)
    await app.listen({ port: 0, host: '127.0.0.1' })
    const port = (app.server.address() as AddressInfo).port
    const received = once(app.server, 'request')
    const socket = connect(port, '127.0.0.1')
    await once(socket, 'connect')
    let response = ''
    socket.on('data', (chunk: Buffer) => (response += chunk.toString()))
    socket.write('POST /slow HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}')
    await received
    const closing = tracked.close()
    await new Promise((resolve) => setTimeout(resolve, 50))
    socket.write('GET /late HTTP/1.1\r\nHost: x\r\n\r\n')
    await closing
    if (!socket.closed) await once(socket, 'close')
    expect(response).toMatch(/^HTTP\/1\.1 200 /)
    expect(response).toContain('{"slow":true}')
    expect(response).toContain('HTTP/1.1 503 ')
    expect(response).toContain('{"error":"Service unavailable","message":"The service is shutting down; retry in a few seconds."}')
    expect(response).not.toContain('statusCode')
    expect(response).not.toContain('{"late":true}')
  })
})
