import type { BundlerContext } from './bundler-context.ts'

/** What a send needs from the chain: fees, and the block from which its operations' events are searched. */
export interface ChainNow {
  fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  fromBlock: bigint
}

export interface ChainNowReader {
  /** Reads fees, block and the bundler's pending nonce now (the nonce corrects the nonce manager). */
  read(): Promise<ChainNow>
  /** Like `read`, and keeps the answer for `recent`. */
  refresh(): Promise<ChainNow>
  /**
   * Fees and block from the cache when recent; the pending-nonce check is always made (it travels alongside the
   * bundle's simulation): after a reorg dropped our transactions it is what moves the local counter back.
   */
  recent(): Promise<ChainNow>
}

// What the last refresh read, for a submission soon after (a warm-up on the block before a launch). An older
// starting block only widens the reconcile log search. The fees may be a few blocks old: a base fee rises at most
// 12.5% a block, so the fee cap is doubled (a cap, not a price: a transaction pays the base fee of its block plus
// the tip), which covers the ~4 blocks the cache lives on a 2 s chain.
const CHAIN_NOW_TTL_MS = 8_000

export function createChainNowReader(ctx: Pick<BundlerContext, 'client' | 'signer' | 'nonces'>): ChainNowReader {
  const { client, signer, nonces } = ctx

  const read = async (): Promise<ChainNow> => {
    const mark = nonces.mark()
    const [fees, fromBlock, pendingNonce] = await Promise.all([
      client.estimateFeesPerGas(),
      client.getBlockNumber({ cacheTime: 0 }),
      client.getTransactionCount({ address: signer.address, blockTag: 'pending' }),
    ])
    // Our transactions the node no longer knows (a reorg dropped their block, the pool evicted them) would leave the
    // local counter ahead of the chain and the next transaction stuck behind a nonce gap.
    nonces.observe(pendingNonce, mark)
    return { fees, fromBlock }
  }

  let chainNowCache: { value: ChainNow; at: number } | undefined
  const refresh = async (): Promise<ChainNow> => {
    const at = Date.now()
    const value = await read()
    chainNowCache = { value, at }
    return value
  }

  const recent = async (): Promise<ChainNow> => {
    const cached = chainNowCache
    if (!cached || Date.now() - cached.at > CHAIN_NOW_TTL_MS) return refresh()
    const mark = nonces.mark()
    nonces.observe(await client.getTransactionCount({ address: signer.address, blockTag: 'pending' }), mark)
    const { fees, fromBlock } = cached.value
    return { fees: { maxFeePerGas: fees.maxFeePerGas * 2n, maxPriorityFeePerGas: fees.maxPriorityFeePerGas }, fromBlock }
  }

  return { read, refresh, recent }
}
