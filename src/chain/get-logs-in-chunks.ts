import type { PublicClient } from 'viem'

/**
 * Default widest `eth_getLogs` block range we ask one provider for. Providers cap the range: Alchemy at 2,000 blocks
 * ("up to a 2K block range", docs.alchemy.com eth_getLogs), QuickNode at 10,000 on paid plans (5 on the free trial),
 * quicknode.com/docs/base/eth_getLogs. 2,000 fits the common paid tiers; a provider that refuses it makes us halve it
 * (below), and `chains.<chain>.getLogsMaxBlocks` sets it per chain. On Base's 200 ms blocks 2,000 blocks is 400 s.
 */
export const DEFAULT_GET_LOGS_MAX_BLOCKS = 2_000

/**
 * Whether an error is a provider refusing the size of a log query (range or result count), in the words the common
 * providers use: Alchemy "Log response size exceeded ... block range", Infura "query returned more than 10000 results",
 * QuickNode "eth_getLogs is limited to a 10,000 range", geth/reth "exceed maximum block range", Erigon/others "block
 * range too large", JSON-RPC -32005 "limit exceeded". Retrying the same range would fail the same way: halve it.
 */
export function isLogRangeTooLarge(error: unknown): boolean {
  const texts: string[] = []
  for (let e: unknown = error, depth = 0; e && depth < 6; depth++) {
    const item = e as { message?: unknown; details?: unknown; shortMessage?: unknown; code?: unknown; cause?: unknown }
    for (const text of [item.message, item.details, item.shortMessage]) if (typeof text === 'string') texts.push(text)
    if (item.code === -32005) return true
    e = item.cause
  }
  return texts.some((text) =>
    /block range|range (is )?too (large|wide|big)|limited to a [\d,]+ range|more than \d+ results|response size exceeded|too many (blocks|logs|results)|exceeds? (the )?max(imum)? (block )?range|query timeout exceeded/i.test(
      text,
    ),
  )
}

export interface LogRange {
  fromBlock: bigint
  /** A number, or 'latest' (resolved once, to the head at the start of the search). */
  toBlock: bigint | 'latest'
}

export interface ChunkOptions {
  /** Widest range per request (default DEFAULT_GET_LOGS_MAX_BLOCKS). */
  maxBlocks?: number | undefined
  /** Stop at the first chunk that found anything (a search for one log): the rest of the range is not read. */
  firstOnly?: boolean
}

/**
 * Logs of a block range read in slices no wider than `maxBlocks`, oldest first; a slice the provider refuses as too
 * large is halved (and the smaller width kept for the rest of the search) until one block is refused too. Why: after
 * downtime a search "from the block we sent at" to the head can span far more than a provider serves in one call,
 * and one refused query would leave the search failing forever.
 */
export async function getLogsInChunks<T>(
  client: Pick<PublicClient, 'getBlockNumber'>,
  range: LogRange,
  read: (fromBlock: bigint, toBlock: bigint) => Promise<readonly T[]>,
  options: ChunkOptions = {},
): Promise<T[]> {
  const toBlock = range.toBlock === 'latest' ? await client.getBlockNumber({ cacheTime: 0 }) : range.toBlock
  let span = BigInt(Math.max(1, Math.floor(options.maxBlocks ?? DEFAULT_GET_LOGS_MAX_BLOCKS)))
  const out: T[] = []
  let from = range.fromBlock
  while (from <= toBlock) {
    const to = from + span - 1n < toBlock ? from + span - 1n : toBlock
    let logs: readonly T[]
    try {
      logs = await read(from, to)
    } catch (error) {
      if (span > 1n && isLogRangeTooLarge(error)) {
        span = span / 2n
        continue
      }
      throw error
    }
    out.push(...logs)
    if (options.firstOnly && out.length > 0) break
    from = to + 1n
  }
  return out
}
