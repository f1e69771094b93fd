import type { Hex } from 'viem'
import type { Buyer, FlowHarness } from './flow-harness.ts'

/** Waits (the harness's deadline) until every buyer's order of `slug` is filled; the block of each fill's transaction. */
export async function filledBlocks(h: FlowHarness, buyers: readonly Buyer[], slug: string): Promise<bigint[]> {
  const filled = await h.waitFor('every order filled', async () => {
    const orders = await Promise.all(buyers.map((b) => h.getOrder(b, slug)))
    return orders.every((o) => o?.status === 'filled') ? orders : undefined
  })
  const blocks: bigint[] = []
  for (const order of filled) {
    const receipt = await h.client.getTransactionReceipt({ hash: order!.execution!.txHash as Hex })
    blocks.push(receipt.blockNumber)
  }
  return blocks
}
