import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative } from 'node:path'
import { type BaseError, createPublicClient, HttpRequestError, RpcRequestError, TimeoutError } from 'viem'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { createRpcFetch, ResponseTooLargeError } from '../../../src/chain/rpc-fetch.ts'
import { rpcHttp } from '../../../src/chain/rpc-http.ts'

/**
 * The daemon's RPC transports send through rpc-fetch.ts (node:http keep-alive) instead of Node's fetch. Against a real
 * HTTP server answering as nodes do: answers, batches, errors with their status, the body bound, viem's timeout, a
 * node that is down, and connections reused.
 */
type Call = { id: number; method: string; params?: unknown[] }
type Handler = (call: Call | Call[], response: ServerResponse, request: IncomingMessage) => void

let server: Server
let url: string
let handler: Handler
const connections: unknown[] = []

const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
const answering: Handler = (body, response) => {
  const one = (call: Call) => ({ jsonrpc: '2.0', id: call.id, result: call.method === 'eth_chainId' ? '0x2105' : '0x2a' })
  json(response, 200, Array.isArray(body) ? body.map(one) : one(body))
}

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => handler(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Call | Call[], response, request))
  })
  server.on('connection', (socket) => connections.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
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

const clientOf = (config: Parameters<typeof rpcHttp>[1] = {}) => createPublicClient({ transport: rpcHttp(url, { retryCount: 0, ...config }) })

describe('rpc fetch under viem', () => {
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
    expect(offenders.map((file) => relative(root, file))).toEqual(['src/chain/rpc-http.ts'])
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
    const small = createRpcFetch({ maxBodyBytes: 1_000 })
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, result: `0x${'ab'.repeat(2_000)}` })
    try {
      handler = (_body, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(big)
      await expect(small.fetch(url, { method: 'POST', body: '{"id":1}' })).rejects.toBeInstanceOf(ResponseTooLargeError)
      // No Content-Length (chunked): counted while read.
      handler = (_body, response) => {
        response.writeHead(200, { 'content-type': 'application/json' })
        response.write(big.slice(0, 600))
        response.end(big.slice(600))
      }
      await expect(small.fetch(url, { method: 'POST', body: '{"id":1}' })).rejects.toBeInstanceOf(ResponseTooLargeError)
      // Under the bound it answers, as fetch does.
      handler = answering
      const response = await small.fetch(url, { method: 'POST', body: '{"id":7,"method":"eth_blockNumber"}' })
      expect(response.ok).toBe(true)
      expect(response.headers.get('Content-Type')).toBe('application/json')
      expect(JSON.parse(await response.text())).toEqual({ jsonrpc: '2.0', id: 7, result: '0x2a' })
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

  it("ends a request that outlives viem's timeout with viem's TimeoutError", async () => {
    const stalled: ServerResponse[] = []
    handler = (_body, response) => stalled.push(response)
    expect(inChain(await failureOf(clientOf({ timeout: 200 })), TimeoutError)).toBeInstanceOf(TimeoutError)
    for (const response of stalled) response.destroy()
  })

  it('rejects at once when the signal is already aborted, and on abort while in flight', async () => {
    const own = createRpcFetch()
    try {
      await expect(own.fetch(url, { method: 'POST', body: '{}', signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' })
      const stalled: ServerResponse[] = []
      handler = (_body, response) => stalled.push(response)
      const controller = new AbortController()
      const pending = own.fetch(url, { method: 'POST', body: '{}', signal: controller.signal })
      await new Promise((resolve) => setTimeout(resolve, 50))
      controller.abort()
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' })
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
})
