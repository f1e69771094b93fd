import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FaultKind = 'drop' | 'delay' | 'error' | 'http502' | 'stale'

export interface FaultProxy {
  url: string
  /** Where requests go; settable once the node's URL is known. */
  target: string
  /** Chance (0-1) that a request meets a fault; 0 passes everything through. */
  rate: number
  /** Faults injected so far, by kind, and requests seen. */
  counts(): Record<FaultKind | 'requests', number>
  close(): Promise<void>
}

const KINDS: readonly FaultKind[] = ['drop', 'delay', 'error', 'http502', 'stale']

/**
 * A loopback JSON-RPC proxy that misbehaves like a bad provider: drops the connection without an answer, answers late
 * (0.1-1.5 s), answers a JSON-RPC error, answers HTTP 502, or reports a stale block number (a lagging backend behind a
 * load balancer). A deterministic generator (seed) picks the faults so a failing run can be replayed.
 */
export async function startFaultProxy(options: { target?: string; rate: number; seed?: number }): Promise<FaultProxy> {
  let seed = options.seed ?? 1
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const counts: Record<FaultKind | 'requests', number> = { requests: 0, drop: 0, delay: 0, error: 0, http502: 0, stale: 0 }
  let lastBlock: bigint | undefined

  async function forward(body: string): Promise<{ status: number; text: string }> {
    const response = await fetch(proxy.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    return { status: response.status, text: await response.text() }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const body = Buffer.concat(chunks).toString('utf8')
    counts.requests++
    const fault = random() < proxy.rate ? KINDS[Math.floor(random() * KINDS.length)]! : undefined
    if (fault === 'drop') {
      counts.drop++
      request.socket.destroy()
      return
    }
    if (fault === 'http502') {
      counts.http502++
      response.writeHead(502, { 'content-type': 'text/plain' }).end('bad gateway')
      return
    }
    if (fault === 'error') {
      counts.error++
      const parsed = JSON.parse(body) as { id: unknown } | { id: unknown }[]
      const one = (id: unknown) => ({ jsonrpc: '2.0', id, error: { code: -32603, message: 'internal error (injected)' } })
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(parsed) ? parsed.map((p) => one(p.id)) : one(parsed.id)))
      return
    }
    if (fault === 'delay') {
      counts.delay++
      await new Promise((resolve) => setTimeout(resolve, 100 + random() * 1_400))
    }
    const answer = await forward(body)
    // Remember the head; a stale fault answers an older one (only for a lone eth_blockNumber).
    const parsed = JSON.parse(body) as { method?: string }
    if (!Array.isArray(parsed) && parsed.method === 'eth_blockNumber' && answer.status === 200) {
      const result = (JSON.parse(answer.text) as { result?: string }).result
      if (result) {
        const head = BigInt(result)
        if (fault === 'stale' && lastBlock !== undefined && lastBlock > 3n) {
          counts.stale++
          const stale = lastBlock - 1n - BigInt(Math.floor(random() * 3))
          response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ...JSON.parse(answer.text), result: `0x${stale.toString(16)}` }))
          return
        }
        lastBlock = head
      }
    }
    response.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.text)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end()
      else response.destroy()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    target: options.target ?? '',
    rate: options.rate,
    counts: () => ({ ...counts }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return proxy
}
