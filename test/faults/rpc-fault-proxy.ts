import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createWsRelay, type WsRelay } from './ws-frame-relay.ts'

export type FaultKind = 'drop' | 'delay' | 'error' | 'http502' | 'stale'
/** Answers given by a provider limit (counted apart from the random faults). */
export type LimitKind = 'rateLimited' | 'gasCapped' | 'batchRefused' | 'rangeRefused' | 'stalePending' | 'overrideRefused'

/**
 * What real providers do to a client within their published limits (each switched on by setting it; deterministic,
 * unlike the random faults): see docs/reliability.md for the figure each one earns.
 */
export interface ProviderLimits {
  /** Every `everyNth` request is answered HTTP 429 with `Retry-After: retryAfterSeconds` (a rate-limited plan). */
  rateLimit?: { everyNth: number; retryAfterSeconds: number }
  /**
   * An `eth_call`/`eth_estimateGas` asking for more gas than `cap`: 'clamp' lowers it to the cap as geth's
   * `--rpc.gascap` does (default 50,000,000, silently capped), 'refuse' answers an error as some providers do.
   */
  ethCallGasCap?: { cap: bigint; mode: 'clamp' | 'refuse' }
  /** A JSON-RPC batch longer than this is refused whole (providers cap batches: Alchemy 1,000, others 100 or less). */
  maxBatch?: number
  /** `eth_getLogs` over more blocks than this is refused as "block range too large" (Alchemy 2,000; QuickNode 10,000). */
  maxLogRange?: number
  /**
   * Every other `eth_getTransactionCount(…, 'pending')` is answered by a lagging node behind a load balancer, one
   * transaction behind (the count minus one): the first read while the limit is on, the third, and so on. The first, so
   * that a launch whose path reads the pending nonce once (one handleOps bundle: chain-now's observeNonces before the
   * send) meets the lagging node; starting with a fresh answer, a 10-buyer launch never did.
   */
  stalePendingNonce?: boolean
  /** `eth_call` with a state override (3rd parameter) or block override (4th) is refused. */
  refuseOverrides?: 'block' | 'state' | 'both'
  /**
   * Every request is answered this many milliseconds later than the node answered it: the round trip to a provider
   * (issue 23's bench injects 50 ms). Requests are not serialised by it: each waits on its own.
   */
  latencyMs?: number
}

export interface FaultProxy {
  url: string
  /**
   * The same proxy's WebSocket endpoint: upgrades are relayed to the node's WebSocket on `target`'s host and port (anvil
   * serves it on its HTTP port), node-to-client frames held `limits.latencyMs` (ws-frame-relay.ts). No faults on it.
   */
  wsUrl: string
  /** The WebSocket side: frames counted, the node's texts, a forged push (`inject`). */
  ws: WsRelay
  /** Provider limits in force (mutable: a test switches them on and off). */
  limits: ProviderLimits
  /** Where requests go; settable once the node's URL is known. */
  target: string
  /** Chance (0-1) that a request meets a fault; 0 passes everything through. */
  rate: number
  /** Faults injected so far, by kind, and requests seen. */
  counts(): Record<FaultKind | LimitKind | 'requests', number>
  /** JSON-RPC calls seen, by method (a batch counts each of its calls). */
  methods(): Record<string, number>
  /** `eth_getTransactionCount(…, 'pending')` calls seen, limits on or off (what the stale pending nonce can meet). */
  pendingNonceReads(): number
  close(): Promise<void>
}

const KINDS: readonly FaultKind[] = ['drop', 'delay', 'error', 'http502', 'stale']

/**
 * A loopback JSON-RPC proxy that misbehaves like a bad provider: drops the connection without an answer, answers late
 * (0.1-1.5 s), answers a JSON-RPC error, answers HTTP 502, or reports a stale block number (a lagging backend behind a
 * load balancer). A deterministic generator (seed) picks the faults so a failing run can be replayed.
 */
export async function startFaultProxy(options: { target?: string; rate: number; seed?: number; limits?: ProviderLimits }): Promise<FaultProxy> {
  let seed = options.seed ?? 1
  const random = () => {
    // mulberry32
    seed = (seed + 0x6d2b79f5) | 0
    let t = seed
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const counts: Record<FaultKind | LimitKind | 'requests', number> = {
    requests: 0,
    drop: 0,
    delay: 0,
    error: 0,
    http502: 0,
    stale: 0,
    rateLimited: 0,
    gasCapped: 0,
    batchRefused: 0,
    rangeRefused: 0,
    stalePending: 0,
    overrideRefused: 0,
  }
  let lastBlock: bigint | undefined
  const methods: Record<string, number> = {}
  // Pending-nonce reads seen (non-zero counts, while the limit is on): the stale node answers the odd ones (1st, 3rd, ...).
  let pendingReads = 0
  let pendingNonceReadsSeen = 0

  async function forward(body: string): Promise<{ status: number; text: string }> {
    const response = await fetch(proxy.target, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    return { status: response.status, text: await response.text() }
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    let body = Buffer.concat(chunks).toString('utf8')
    counts.requests++
    const limited = await applyLimits(body, response)
    if (limited === 'answered') return
    body = limited
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
    if (proxy.limits.latencyMs) await new Promise((resolve) => setTimeout(resolve, proxy.limits.latencyMs))
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

  type RpcCall = { jsonrpc?: string; id: unknown; method: string; params?: unknown[] }
  const rpcError = (id: unknown, code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } })
  const json = (response: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) =>
    response.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(value))

  /**
   * The provider limits: answers the request itself ('answered') or returns the body to forward (possibly rewritten:
   * a clamped gas, a stale-nonce marker handled after forwarding).
   */
  async function applyLimits(body: string, response: ServerResponse): Promise<string | 'answered'> {
    const limits = proxy.limits
    if (limits.rateLimit && counts.requests % limits.rateLimit.everyNth === 0) {
      counts.rateLimited++
      // Alchemy, QuickNode and Infura answer a plan's rate limit with HTTP 429; some add Retry-After (seconds).
      json(response, 429, rpcError(null, 429, 'Too Many Requests (injected)'), { 'retry-after': String(limits.rateLimit.retryAfterSeconds) })
      return 'answered'
    }
    let parsed: RpcCall | RpcCall[]
    try {
      parsed = JSON.parse(body) as RpcCall | RpcCall[]
    } catch {
      return body
    }
    const calls = Array.isArray(parsed) ? parsed : [parsed]
    for (const call of calls) methods[call.method] = (methods[call.method] ?? 0) + 1
    if (Array.isArray(parsed) && limits.maxBatch !== undefined && parsed.length > limits.maxBatch) {
      counts.batchRefused++
      // As providers do: one error for the whole batch (not one per call), HTTP 200.
      json(response, 200, rpcError(null, -32600, `batch size too large: at most ${limits.maxBatch} requests (injected)`))
      return 'answered'
    }
    const refusals = new Map<unknown, ReturnType<typeof rpcError>>()
    let rewritten = false
    for (const call of calls) {
      const params = call.params ?? []
      if (call.method === 'eth_getLogs' && limits.maxLogRange !== undefined) {
        const filter = params[0] as { fromBlock?: string; toBlock?: string; blockHash?: string } | undefined
        if (filter && !filter.blockHash) {
          const from = filter.fromBlock?.startsWith('0x') ? BigInt(filter.fromBlock) : 0n
          const to = filter.toBlock?.startsWith('0x') ? BigInt(filter.toBlock) : await headNumber()
          if (to - from + 1n > BigInt(limits.maxLogRange)) {
            counts.rangeRefused++
            refusals.set(call.id, rpcError(call.id, -32602, `block range too large: eth_getLogs is limited to a ${limits.maxLogRange} block range (injected)`))
          }
        }
      }
      if ((call.method === 'eth_call' || call.method === 'eth_estimateGas') && limits.ethCallGasCap) {
        const tx = params[0] as { gas?: string } | undefined
        if (tx?.gas && BigInt(tx.gas) > limits.ethCallGasCap.cap) {
          counts.gasCapped++
          if (limits.ethCallGasCap.mode === 'refuse')
            refusals.set(call.id, rpcError(call.id, -32602, `gas ${BigInt(tx.gas)} above the RPC gas cap ${limits.ethCallGasCap.cap} (injected)`))
          else {
            tx.gas = `0x${limits.ethCallGasCap.cap.toString(16)}`
            rewritten = true
          }
        }
      }
      if (call.method === 'eth_call' && limits.refuseOverrides) {
        const state = params[2] !== undefined && params[2] !== null && Object.keys(params[2] as object).length > 0
        const block = params[3] !== undefined && params[3] !== null
        const which = limits.refuseOverrides
        if ((state && which !== 'block') || (block && which !== 'state')) {
          counts.overrideRefused++
          refusals.set(call.id, rpcError(call.id, -32602, `invalid params: too many arguments, want at most ${state && which !== 'block' ? 2 : 3} (injected)`))
        }
      }
    }
    if (refusals.size > 0) {
      // A refused call in a batch: the batch's other calls are still answered (forwarded one by one).
      if (!Array.isArray(parsed)) {
        json(response, 200, refusals.get(parsed.id))
        return 'answered'
      }
      const answers = await Promise.all(
        parsed.map(async (call) => refusals.get(call.id) ?? (JSON.parse((await forward(JSON.stringify(call))).text) as unknown)),
      )
      json(response, 200, answers)
      return 'answered'
    }
    const pendingIds = new Set(calls.filter((call) => call.method === 'eth_getTransactionCount' && call.params?.[1] === 'pending').map((call) => call.id))
    pendingNonceReadsSeen += pendingIds.size
    if (limits.stalePendingNonce && pendingIds.size > 0) {
      const forwarded = JSON.parse((await forward(rewritten ? JSON.stringify(parsed) : body)).text) as
        | { id: unknown; result?: string }
        | { id: unknown; result?: string }[]
      // A node one transaction behind (it has not seen our newest one, neither mined nor pooled), every other read,
      // starting with the first.
      const stale = (answer: { id: unknown; result?: string }) => {
        if (!pendingIds.has(answer.id) || !answer.result || BigInt(answer.result) === 0n || ++pendingReads % 2 !== 1) return answer
        counts.stalePending++
        return { ...answer, result: `0x${(BigInt(answer.result) - 1n).toString(16)}` }
      }
      json(response, 200, Array.isArray(forwarded) ? forwarded.map(stale) : stale(forwarded))
      return 'answered'
    }
    return rewritten ? JSON.stringify(parsed) : body
  }

  async function headNumber(): Promise<bigint> {
    const answer = JSON.parse((await forward(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'eth_blockNumber', params: [] }))).text) as { result: string }
    return BigInt(answer.result)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) response.writeHead(502).end()
      else response.destroy()
    })
  })
  const ws = createWsRelay(() => proxy.limits.latencyMs ?? 0)
  server.on('upgrade', (request, socket, head) => ws.upgrade(request, socket, head, proxy.target))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}`,
    ws,
    target: options.target ?? '',
    rate: options.rate,
    limits: options.limits ?? {},
    counts: () => ({ ...counts }),
    methods: () => ({ ...methods }),
    pendingNonceReads: () => pendingNonceReadsSeen,
    close: () =>
      new Promise<void>((resolve) => {
        ws.close()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
  return proxy
}
