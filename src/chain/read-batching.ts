import type { Transport } from 'viem'

/** JSON-RPC 2.0's "Invalid Request": what providers answer a batch they refuse whole (too long, or batches off). */
const INVALID_REQUEST = -32600
/** HTTP statuses a provider refuses a batch's request with: 413 Payload Too Large, 400 Bad Request. */
const REFUSED_STATUSES = new Set([400, 413])

/**
 * Whether a batched call failed because its batch was refused as a whole, not for what it asked: an Invalid Request
 * (our own requests are well formed, so only the batch can be) or an HTTP 400/413, anywhere in the error's cause chain.
 * The fault proxy's batch cap answers so (test/faults/rpc-fault-proxy.ts `maxBatch`), as providers do (one error for
 * the whole batch, HTTP 200).
 */
export function isBatchRefused(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    const { code, status } = e as { code?: unknown; status?: unknown }
    if (code === INVALID_REQUEST || (typeof status === 'number' && REFUSED_STATUSES.has(status))) return true
  }
  return false
}

/**
 * The largest call that rides in a batch, in characters of its hex data: larger ones (an allowance or balance multicall
 * over thousands of wallets: ~100-300 kB each) go alone. A batch is one HTTP body and nodes cap bodies: anvil refuses a
 * batch over ~2 MB whole (one -32600 "Invalid request": 400 eth_calls of 2 kB of calldata answered, 600 refused; found
 * by the split bench, 2026-11-27), providers cap them too. With at most READ_BATCH.batchSize (100) calls of at most
 * this size a batch stays under 1 MB; what batching gains is the round trip of many small reads, not of a few big ones.
 */
export const BATCH_CALL_MAX_CHARS = 8_192

/** The size of a call's data (eth_call, eth_estimateGas: `data` or `input` of its first parameter), else 0. */
function callDataChars(args: { method: string; params?: unknown }): number {
  if (args.method !== 'eth_call' && args.method !== 'eth_estimateGas') return 0
  const call = Array.isArray(args.params) ? (args.params[0] as { data?: unknown; input?: unknown } | undefined) : undefined
  const data = call?.data ?? call?.input
  return typeof data === 'string' ? data.length : 0
}

export interface BatchFallback {
  /** The batch that was refused (its call's method), told once: from then on every request goes unbatched. */
  method: string
}

/**
 * Reads batched (`batched`) but a call larger than BATCH_CALL_MAX_CHARS, which goes alone (`single`); and once a
 * provider refuses a batch as a whole (isBatchRefused), each read alone from then on: the call that met the refusal is
 * asked again alone at once, so nothing fails for it. Start-up checks the node takes batches of RPC_BATCH_SIZE
 * (verify-chain.ts); this covers a provider whose limits change while the daemon runs (a plan downgraded, a load
 * balancer routing to another backend) or a body cap we did not foresee. Costs the batching's gain, never a read.
 */
export function withReadBatching(batched: Transport, single: Transport, onFallback?: (fallback: BatchFallback) => void): Transport {
  return ((params) => {
    const batchedTransport = batched(params)
    const singleTransport = single(params)
    let unbatched = false
    const request = (async (args: { method: string; params?: unknown }, options?: unknown) => {
      if (unbatched || callDataChars(args) > BATCH_CALL_MAX_CHARS) return singleTransport.request(args as never, options as never)
      try {
        return await batchedTransport.request(args as never, options as never)
      } catch (error) {
        if (!isBatchRefused(error)) throw error
        if (!unbatched) {
          unbatched = true
          onFallback?.({ method: args.method })
        }
        return singleTransport.request(args as never, options as never)
      }
    }) as typeof batchedTransport.request
    return { ...batchedTransport, request }
  }) as Transport
}
