import type { Hash, TransactionReceipt } from 'viem'
import type { LaunchedToken } from '../../devnet/launchpads/launch-token.ts'
import type { FlowHarness } from './flow-harness.ts'

/**
 * A third party's 20,000 USDC buy of the launch sent with a far higher tip than the pending batch transaction `txHash`
 * (so it lands ahead of it in its block), then blocks mined (at most `most`, any pending transaction) until `done`.
 * Returns the batch transaction's receipt, the third party's and its hash.
 */
export async function frontrunBatch(
  h: FlowHarness,
  launched: LaunchedToken,
  txHash: Hash,
  until: { what: string; done: () => Promise<boolean>; most: number },
): Promise<{ receipt: TransactionReceipt; frontrunReceipt: TransactionReceipt; frontrun: Hash }> {
  const frontrun = await h.thirdPartyBuy(launched.token, launched.poolKey, '20000', { wait: false, priorityFeeGwei: 500n, prepared: true })
  await h.mineUntil(until.what, until.done, until.most, 'any')
  const [receipt, frontrunReceipt] = await Promise.all([h.client.getTransactionReceipt({ hash: txHash }), h.client.getTransactionReceipt({ hash: frontrun })])
  return { receipt, frontrunReceipt, frontrun }
}
