import { RpcRequestError, type Address, type Hash, type PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { findBuyOnChain } from '../../../daemon/executor/find-buy.ts'

const ROUTER: Address = '0x00000000000000000000000000000000000000aa'
const BUYER: Address = '0x00000000000000000000000000000000000000bb'
const ORDER: Hash = `0x${'11'.repeat(32)}`
const TX: Hash = `0x${'22'.repeat(32)}`

/**
 * After downtime the search for an order's buy starts at its first attempt's block, far below the head: the node
 * (a fake with Alchemy's 2,000-block limit, or a stricter one) must never be asked for a wider range.
 */
function node(head: bigint, buyAt: bigint, limit: bigint) {
  const ranges: Array<[bigint, bigint]> = []
  const client = {
    readContract: async () => true,
    getBlockNumber: async () => head,
    getContractEvents: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) => {
      ranges.push([fromBlock, toBlock])
      if (toBlock - fromBlock + 1n > limit)
        throw new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32602, message: `eth_getLogs is limited to a ${limit} range` } })
      if (buyAt < fromBlock || buyAt > toBlock) return []
      return [{ args: { buyer: BUYER, orderId: ORDER, amountIn: 5n, tokensReceived: 7n, fee: 1n }, transactionHash: TX, blockNumber: buyAt }]
    },
  } as unknown as PublicClient
  return { client, ranges }
}

describe('findBuyOnChain over a long range', () => {
  it('asks for at most the configured span per request and finds the buy far above the start', async () => {
    const n = node(1_000_000n, 950_123n, 2_000n)
    const found = await findBuyOnChain(n.client, ROUTER, BUYER, ORDER, 900_000n, 2_000)
    expect(found).toMatchObject({ txHash: TX, blockNumber: 950_123n, amountIn: 5n, tokensReceived: 7n, fee: 1n })
    for (const [from, to] of n.ranges) expect(to - from + 1n).toBeLessThanOrEqual(2_000n)
    // It stops at the slice holding the buy.
    expect(n.ranges.at(-1)![1]).toBeGreaterThanOrEqual(950_123n)
    expect(n.ranges.at(-1)![0]).toBeLessThanOrEqual(950_123n)
  })

  it('halves the span when the provider refuses it and still finds the buy', async () => {
    const n = node(10_000n, 9_990n, 500n)
    const found = await findBuyOnChain(n.client, ROUTER, BUYER, ORDER, 0n)
    expect(found?.txHash).toBe(TX)
    const refused = n.ranges.filter(([from, to]) => to - from + 1n > 500n)
    // 2,000 then 1,000 refused, 500 served from then on.
    expect(refused.map(([from, to]) => to - from + 1n)).toEqual([2_000n, 1_000n])
  })
})
