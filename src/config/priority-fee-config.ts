import { DEFAULT_PRIORITY_FEE_POLICY, type PriorityFeePolicy } from '../wallets/bundler/priority-fee-policy.ts'
import { parseTokenAmount } from '../wallets/parse-token-amount.ts'
import type { ParsedConfig } from './config-schema.ts'

/** wallet.priorityFee as validated by the schema: decimal strings and numbers, printable and JSON-safe. */
export type PriorityFeeConfig = ParsedConfig['wallet']['priorityFee']

/**
 * wallet.priorityFee as validated by the schema -> the policy in wei. Neither `fixedGwei` nor `percentile` set: the
 * default percentile (75th of the last 20 blocks; `blocks` alone changes only the window).
 */
export function toPriorityFeePolicy(input: PriorityFeeConfig): PriorityFeePolicy {
  const defaults = DEFAULT_PRIORITY_FEE_POLICY.tip.kind === 'percentile' ? DEFAULT_PRIORITY_FEE_POLICY.tip : { percentile: 75, blocks: 20 }
  const tip: PriorityFeePolicy['tip'] =
    input.fixedGwei !== undefined
      ? { kind: 'fixed', tipWei: gweiToWei(input.fixedGwei) }
      : { kind: 'percentile', percentile: input.percentile ?? defaults.percentile, blocks: input.blocks ?? defaults.blocks }
  return {
    tip,
    maxTipWeiPerTx: parseTokenAmount(input.maxEthPerTx, 18),
    launch: { multiplier: input.launchMultiplier, blocks: input.launchBlocks },
  }
}

/** "0.01" gwei -> wei; "0" is a zero tip (the policy still offers the node's 1-wei minimum). */
function gweiToWei(gwei: string): bigint {
  const [whole = '0', fraction = ''] = gwei.split('.')
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, '0') || '0')
}
