import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import { type BaseError, createPublicClient, HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startJsonBodyServer } from '../../support/json-body-server.ts'
import { createRpcPoster, ResponseTooLargeError, RpcDeadlineError } from '../../../src/chain/rpc-post.ts'
import { rpcHttp } from '../../../src/chain/rpc-http.ts'
import { isBatchRefused } from '../../../src/chain/read-batching.ts'

/**
 * The daemon's RPC transport (rpc-transport.ts over rpc-post.ts: node:http keep-alive) in place of viem's `http` and
 * Node's fetch. Against a real HTTP server answering as nodes do: answers, batches, errors with their status, the body
 * bound, the deadline, a caller's abort, a node that is down, and connections reused.
 */
type Call = { id: number; method: string; params?: unknown[] }
type Handler = (call: Call | Call[], response: ServerResponse, request: IncomingMessage) => void

let server: Server
let url: string
let handler: Handler
const connections: unknown[] = []
/** Every request body and headers the server was sent, in order. */
const seenBodies: Array<Call | Call[]> = []
const seenHeaders: IncomingMessage['headers'][] = []

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
const answering: Handler = (body, response) => {
  const one = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: call.method === 'eth_chainId' ? '0x2105' : '0x2a' })
  json(response, 200, Array.isArray(body) ? body.map(one) : one(body))
}

beforeAll(async () => {
  ;({ server, url } = await startJsonBodyServer<Call | Call[]>((body, response, request) => {
    seenBodies.push(body)
    seenHeaders.push(request.headers)
    handler(body, response, request)
  }))
  server.on('connection', (socket) => connections.push(socket))
})
afterEach(() => {
  handler = answering
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise((resolve) => server.close(resolve))
})
handler = answering

/** The error of `type` in a viem error's cause chain (viem wraps the transport's in the action's). */
const inChain = (error: unknown, type: abstract new (...args: never[]) => Error): unknown => (error as BaseError).walk((e) => e instanceof type)
/** What the block-number read threw. */
const failureOf = (client: ReturnType<typeof clientOf>): Promise<unknown> =>
  client.getBlockNumber({ cacheTime: 0 }).then(
    () => new Error('answered'),
    (error: unknown) => error,
  )

/** How long a wait for the server's side may take: long enough for a loaded CI machine, it only catches a hang. */
const WAIT = { timeout: 15_000, interval: 10 }

const clientOf = (config: Parameters<typeof rpcHttp>[1] = {}) => createPublicClient({ transport: rpcHttp(url, { retryCount: 0, ...config }) })

describe('the RPC transport under viem', () => {
  it('answers single requests and batches, over one kept-alive connection', async () => {
    const before = connections.length
    const client = clientOf()
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n)
    expect(await client.getChainId()).toBe(8453)
    const batched = createPublicClient({ transport: rpcHttp(url, { retryCount: 0, batch: { batchSize: 10, wait: 0 } }) })
    const [a, b] = await Promise.all([batched.getBlockNumber({ cacheTime: 0 }), batched.getChainId()])
    expect([a, b]).toEqual([42n, 8453])
    // Sequential requests reuse the agent's free socket: at most one new connection for the four requests.
    expect(connections.length - before).toBeLessThanOrEqual(1)
  })

  it("does not go through Node's fetch", async () => {
    const fetchSpy = vi.spyOn(globalThis, 'fetch').mockRejectedValue(new Error('global fetch used'))
    try {
      expect(await clientOf().getBlockNumber({ cacheTime: 0 })).toBe(42n)
      expect(fetchSpy).not.toHaveBeenCalled()
    } finally {
      fetchSpy.mockRestore()
    }
  })

  it("builds every product transport through rpcHttp: no file of src/ or daemon/ imports viem's http", () => {
    const root = join(import.meta.dirname, '..', '..', '..')
    const files = ['src', 'daemon'].flatMap((dir) =>
      readdirSync(join(root, dir), { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.ts'))
        .map((path) => join(root, dir, path)),
    )
    const offenders = files.filter((file) => {
      const viemImports = readFileSync(file, 'utf8').match(/import\s*\{[^}]*\}\s*from\s*'viem'/g) ?? []
      return viemImports.some((line) => /[{,]\s*http\s*[,}]/.test(line))
    })
    expect(offenders.map((file) => relative(root, file))).toEqual([])
  })

  it('gives a JSON-RPC error with its HTTP status, and a bare HTTP error with its status', async () => {
    handler = (body, response) => json(response, 429, { jsonrpc: '2.0', id: (body as Call).id, error: { code: -32005, message: 'slow down' } })
    const rpcError = inChain(await failureOf(clientOf()), RpcRequestError)
    expect(rpcError).toBeInstanceOf(RpcRequestError)
    expect((rpcError as RpcRequestError).status).toBe(429)

    handler = (_body, response) => response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway')
    const httpError = inChain(await failureOf(clientOf()), HttpRequestError)
    expect(httpError).toBeInstanceOf(HttpRequestError)
    expect((httpError as HttpRequestError).status).toBe(502)
  })

  it('refuses a body over the bound, declared or streamed, without keeping it', async () => {
    const small = createRpcPoster({ maxBodyBytes: 1_000 })
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: `0x${'ab'.repeat(2_000)}` })
    const post = (body: string) => small.post(new URL(url), body, { timeoutMs: 5_000 })
    try {
      handler = (_body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(big)
      await expect(post('{"id":1}')).rejects.toBeInstanceOf(ResponseTooLargeError)
      // No Content-Length (chunked): counted while read.
      handler = (_body, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write(big.slice(0, 600))
        response.end(big.slice(600))
      }
      await expect(post('{"id":1}')).rejects.toBeInstanceOf(ResponseTooLargeError)
      // Under the bound it answers.
      handler = answering
      const answer = await post('{"id":7,"method":"eth_blockNumber"}')
      expect(answer.status).toBe(200)
      expect(answer.headers['content-type']).toBe('application/json')
      expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 7, result: '0x2a' })
    } finally {
      small.close()
    }
  })

  it('follows no redirect and asks for no compression (docs/chains.md "RPC budget")', async () => {
    const seen: IncomingMessage[] = []
    handler = (_body, response, request) => {
      seen.push(request)
      response.writeHead(301, { location: `${url}/elsewhere` }).end()
    }
    const httpError = inChain(await failureOf(clientOf()), HttpRequestError)
    expect(httpError).toBeInstanceOf(HttpRequestError)
    expect((httpError as HttpRequestError).status).toBe(301)
    expect(seen).toHaveLength(1)
    expect(seen[0]!.url).toBe('/')
    expect(seen[0]!.headers['accept-encoding']).toBeUndefined()
  })

  it('fails an answer whose connection is cut mid-body, never hands on a truncated one', async () => {
    handler = (_body, response) => {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' })
      response.write('{"jsonrpc":"2.0","id":1,"result":"0x2')
      setTimeout(() => response.socket?.destroy(), 20)
    }
    expect(inChain(await failureOf(clientOf()), HttpRequestError)).toBeInstanceOf(HttpRequestError)
  })

  it("ends a request that outlives the timeout with viem's TimeoutError, its connection closed", async () => {
    const stalled: ServerResponse[] = []
    handler = (_body, response) => stalled.push(response)
    expect(inChain(await failureOf(clientOf({ timeout: 200 })), TimeoutError)).toBeInstanceOf(TimeoutError)
    await vi.waitFor(() => expect(stalled[0]?.socket?.destroyed ?? true).toBe(true), WAIT)
    for (const response of stalled) response.destroy()
    // The poster's own deadline error, under the transport.
    const own = createRpcPoster()
    try {
      await expect(own.post(new URL(url), '{}', { timeoutMs: 100 })).rejects.toBeInstanceOf(RpcDeadlineError)
    } finally {
      own.close()
      for (const response of stalled) response.destroy()
    }
  })

  it("rejects at once when the caller's signal is already aborted, and on abort while in flight", async () => {
    const own = createRpcPoster()
    try {
      await expect(own.post(new URL(url), '{}', { timeoutMs: 0, signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
      const stalled: ServerResponse[] = []
      handler = (_body, response) => stalled.push(response)
      const controller = new AbortController()
      const pending = own.post(new URL(url), '{}', { timeoutMs: 0, signal: controller.signal })
      await vi.waitFor(() => expect(stalled).toHaveLength(1), WAIT)
      controller.abort()
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
      // Through viem: requests given a signal go alone even when asked together on a batching transport (two plain
      // requests, not one batch), and end when it aborts.
      const batched = createPublicClient({ transport: rpcHttp(url, { retryCount: 0, batch: true }) })
      const viaViem = new AbortController()
      const asked = (['eth_blockNumber', 'eth_chainId'] as const).map((method) =>
        batched.request({ method }, { signal: viaViem.signal }).catch((error: unknown) => error),
      )
      await vi.waitFor(() => expect(stalled).toHaveLength(3), WAIT)
      expect(seenBodies.slice(-2).map((body) => Array.isArray(body))).toEqual([false, false])
      viaViem.abort()
      for (const failure of asked) expect(await failure).toMatchObject({ name: 'AbortError' })
      for (const response of stalled) response.destroy()
    } finally {
      own.close()
    }
  })

  it('reports a node that is down as an HTTP request error, as viem does for fetch', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const client = createPublicClient({ transport: rpcHttp(`http://127.0.0.1:${port}`, { retryCount: 0 }) })
    const httpError = inChain(await failureOf(client), HttpRequestError)
    expect(httpError).toBeInstanceOf(HttpRequestError)
    expect(String((httpError as HttpRequestError).cause)).toMatch(/ECONNREFUSED/)
  })
  it('gathers the requests of one timer turn into batches of at most batchSize, answers matched by id in any order', async () => {
    // The server answers each batch reversed: the transport matches replies by id, not by position.
    handler = (body, response) => {
      const one = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: `0x${(Number(call.params?.[0] ?? 0) + 1).toString(16)}` })
      json(response, 200, Array.isArray(body) ? body.map(one).reverse() : one(body))
    }
    const before = seenBodies.length
    const client = createPublicClient({ transport: rpcHttp(url, { retryCount: 0, batch: { batchSize: 2, wait: 0 } }) })
    const asked = [1, 2, 3, 4, 5].map((n) => client.request({ method: 'web3_sha3' as never, params: [n] as never }))
    expect(await Promise.all(asked)).toEqual(['0x2', '0x3', '0x4', '0x5', '0x6'])
    const sent = seenBodies.slice(before)
    // Two batches of two, and the fifth alone as a plain request (not a one-element batch).
    expect(sent.map((body) => (Array.isArray(body) ? body.length : 'plain'))).toEqual([2, 2, 'plain'])
    // Ids unique within a batch.
    for (const body of sent.filter(Array.isArray)) expect(new Set(body.map((call) => call.id)).size).toBe(body.length)
  })

  it("fails each request of a batch refused whole with the refusal, which read-batching's test recognises", async () => {
    const refusal = { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch too large' } }
    const client = createPublicClient({ transport: rpcHttp(url, { retryCount: 0, batch: { batchSize: 10, wait: 0 } }) })
    for (const answer of [refusal, [refusal]]) {
      handler = (_body, response) => json(response, 200, answer)
      const failures = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getChainId()].map((asked) => asked.catch((error: unknown) => error)))
      for (const failure of failures) {
        expect(inChain(failure, RpcRequestError)).toMatchObject({ code: -32600 })
        expect(isBatchRefused(failure)).toBe(true)
      }
    }
    // An HTTP 413 for the batch: its status, and the same test recognises it.
    handler = (_body, response) => response.writeHead(413, { 'content-type': 'text/plain' }).end('too large')
    const [failure] = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getChainId()].map((asked) => asked.catch((error: unknown) => error)))
    expect(inChain(failure, HttpRequestError)).toMatchObject({ status: 413 })
    expect(isBatchRefused(failure)).toBe(true)
    // One reply missing from a batch's answer fails only that request.
    handler = (body, response) =>
      json(
        response,
        200,
        (body as Call[]).slice(1).map((call) => ({ jsonrpc: '2.0', id: call.id, result: '0x2a' })),
      )
    const [missing, answered] = await Promise.all(
      [client.getBlockNumber({ cacheTime: 0 }), client.getChainId()].map((asked) => asked.catch((error: unknown) => error)),
    )
    expect(inChain(missing, HttpRequestError)).toBeInstanceOf(HttpRequestError)
    expect(answered).toBe(42)
  })

  it("carries the answer's headers on an HTTP error (viem's retry reads Retry-After), and a proxy's text as its details", async () => {
    handler = (_body, response) => response.writeHead(503, { 'content-type': 'text/html', 'retry-after': '2' }).end('<h1>down for maintenance</h1>')
    const httpError = inChain(await failureOf(clientOf()), HttpRequestError) as HttpRequestError
    expect(httpError.status).toBe(503)
    expect(httpError.headers?.get('Retry-After')).toBe('2')
    expect(httpError.details).toContain('down for maintenance')
    // A 2xx answer that is not JSON: an HTTP request error with the parse failure as its cause.
    handler = (_body, response) => response.writeHead(200, { 'content-type': 'text/plain' }).end('not json')
    const parseError = inChain(await failureOf(clientOf()), HttpRequestError) as HttpRequestError
    expect(parseError.cause).toBeInstanceOf(SyntaxError)
    // A 2xx JSON answer that is neither a result nor an error.
    handler = (_body, response) => json(response, 200, { jsonrpc: '2.0', id: 1 })
    expect(inChain(await failureOf(clientOf()), HttpRequestError)).toBeInstanceOf(HttpRequestError)
  })

  it("retries a retryable failure as viem's rule says (a 503 then an answer)", async () => {
    let calls = 0
    handler = (body, response) => {
      calls += 1
      if (calls === 1) response.writeHead(503).end()
      else answering(body, response, undefined as never)
    }
    const client = createPublicClient({ transport: rpcHttp(url, { retryCount: 1, retryDelay: 1 }) })
    expect(await client.getBlockNumber({ cacheTime: 0 })).toBe(42n)
    expect(calls).toBe(2)
  })

  it("sends a URL's user and password as Basic authorization, and keeps them out of its errors", async () => {
    const withCredentials = url.replace('http://', 'http://alice:s3cret@')
    const before = seenHeaders.length
    handler = (_body, response) => response.writeHead(500, { 'content-type': 'text/plain' }).end('boom')
    const client = createPublicClient({ transport: rpcHttp(withCredentials, { retryCount: 0 }) })
    const failure = await failureOf(client as never)
    expect(seenHeaders[before]?.authorization).toBe(`Basic ${Buffer.from('alice:s3cret').toString('base64')}`)
    expect(String((failure as Error).message)).not.toContain('s3cret')
    expect(JSON.stringify(inChain(failure, HttpRequestError))).not.toContain('s3cret')
  })

  it('makes no AbortController per request (on Node 20 their signals outlive young collections: rpc-transport.ts)', async () => {
    const constructed = vi.spyOn(globalThis, 'AbortController')
    try {
      const client = clientOf({ batch: true })
      await Promise.all([client.getBlockNumber({ cacheTime: 0 }), client.getChainId(), clientOf().getBlockNumber({ cacheTime: 0 })])
      expect(constructed).not.toHaveBeenCalled()
    } finally {
      constructed.mockRestore()
    }
  })
})
