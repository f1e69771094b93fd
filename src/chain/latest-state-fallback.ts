import type { Transport } from 'viem'

/** State-reading methods and the position of their block parameter. */
const BLOCK_PARAM: Readonly<Record<string, number>> = {
  eth_call: 1,
  eth_getBalance: 1,
  eth_getCode: 1,
  eth_getTransactionCount: 1,
  eth_getStorageAt: 2,
}

/**
 * How nodes say "I no longer (or do not yet) have the state of that block". A full node keeps only recent state (geth
 * and op-geth: 128 blocks, "missing trie node", go-ethereum#20874; reth: "State at block #N is pruned", reth#4092;
 * parity: "running with state pruning"); anvil restarted from a state dump has only its head's state
 * ("BlockOutOfRangeError: block height is H but requested was N"); a node behind a load balancer may not have the block
 * yet ("header not found"). Matched on the message because these are the nodes' own texts, with no common code.
 */
const STATE_UNAVAILABLE = [
  /missing trie node/i,
  /state at block #?\d+ is pruned/i,
  /state pruning/i,
  /BlockOutOfRangeError/,
  /header not found/i,
  /historical state/i,
]

/** Whether a failed read (or any error in its cause chain) is a node refusing a block's state rather than a real failure. */
export function isStateUnavailable(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    const texts = [e.message, (e as { details?: unknown }).details].filter((t): t is string => typeof t === 'string')
    if (texts.some((text) => STATE_UNAVAILABLE.some((pattern) => pattern.test(text)))) return true
  }
  return false
}

export interface StateFallback {
  method: string
  /** The block parameter the node refused (hex number or tag). */
  requested: unknown
}

/**
 * Wraps a transport so a state read at a block whose state the node cannot serve is answered from the latest state.
 *
 * Why that is right for us: the daemon reads state at a block to price that block (the paired asset, a launch pool
 * after its dev buy, an auction's round) and to warm balances; when the node cannot serve it we are catching up on old
 * blocks (after downtime, or a devnet chain restarted from its dump), and the newest state is the best estimate of
 * the price we would buy at now. Without it one unservable block stalled the indexer for good (it retried forever).
 * Reads at the latest state are never retried here; other errors pass through unchanged.
 */
export function withLatestStateFallback(inner: Transport, onFallback?: (fallback: StateFallback) => void): Transport {
  return ((params) => {
    const transport = inner(params)
    const request = (async (args: { method: string; params?: unknown }, options?: unknown) => {
      try {
        return await transport.request(args as never, options as never)
      } catch (error) {
        const at = BLOCK_PARAM[args.method]
        const list = Array.isArray(args.params) ? args.params : undefined
        if (at === undefined || !list || list[at] === undefined || list[at] === 'latest' || !isStateUnavailable(error)) throw error
        onFallback?.({ method: args.method, requested: list[at] })
        const latest = [...list]
        latest[at] = 'latest'
        return transport.request({ ...args, params: latest } as never, options as never)
      }
    }) as typeof transport.request
    return { ...transport, request }
  }) as Transport
}
