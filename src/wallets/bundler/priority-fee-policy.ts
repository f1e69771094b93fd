/**
 * How much priority fee (tip) the bundler EOA's transactions offer. Base orders the transactions of a block by priority
 * fee and its sequencer mempool is private (docs.base.org/base-chain/network-information/transaction-ordering): the
 * tip is the only lever over where a launch's buys land in the block, and the only one over whether a transaction
 * waiting behind others gets in at all. Pure: the chain reads (eth_feeHistory, the fee estimate) happen in chain-now.ts.
 */

/** Where the tip per gas comes from. */
export type TipSource =
  /** The same tip every time, wei per gas. */
  | { kind: 'fixed'; tipWei: bigint }
  /**
   * A percentile of the tips paid in the last `blocks` blocks (eth_feeHistory's rewardPercentiles): each block's
   * `percentile`-th tip (the node weighs it by gas), then the same percentile across those blocks.
   */
  | { kind: 'percentile'; percentile: number; blocks: number }

export interface PriorityFeePolicy {
  tip: TipSource
  /** The most tip one transaction may pay, wei: tip per gas × the transaction's gas limit never exceeds it. */
  maxTipWeiPerTx: bigint
  /** The first `blocks` blocks of a launch (its buys race snipers for the block) offer `multiplier` times the tip. */
  launch: { multiplier: number; blocks: number }
}

export interface Fees {
  maxFeePerGas: bigint
  maxPriorityFeePerGas: bigint
}

/**
 * The lowest tip a node takes into its pool: geth's and op-geth's `--txpool.pricelimit`, default 1 wei
 * (go-ethereum core/txpool/legacypool/legacypool.go, DefaultConfig.PriceLimit).
 */
export const NODE_MIN_TIP_WEI = 1n

/**
 * A transaction replacing a pending one of the same nonce must raise both its tip and its fee cap by at least this
 * percentage, or the node answers "replacement transaction underpriced": geth's and op-geth's `--txpool.pricebump`,
 * default 10 (go-ethereum core/txpool/legacypool/legacypool.go DefaultConfig.PriceBump; list.go compares the new fee
 * cap and tip with old × (100 + PriceBump) / 100). anvil accepts any strictly higher replacement; we use geth's rule.
 */
export const REPLACEMENT_BUMP_PERCENT = 10n

export const DEFAULT_PRIORITY_FEE_POLICY: PriorityFeePolicy = {
  tip: { kind: 'percentile', percentile: 75, blocks: 20 },
  maxTipWeiPerTx: 5_000_000_000_000_000n, // 0.005 ETH
  launch: { multiplier: 3, blocks: 25 },
}

const max = (a: bigint, b: bigint): bigint => (a > b ? a : b)
const min = (a: bigint, b: bigint): bigint => (a < b ? a : b)

/** The nearest-rank percentile (1..100) of the values; undefined when there are none. */
export function percentileOf(values: readonly bigint[], percentile: number): bigint | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((percentile / 100) * sorted.length)))
  return sorted[rank - 1]
}

/** The part of eth_feeHistory the tip is read from (viem's getFeeHistory result, one reward percentile asked). */
export interface FeeHistoryRewards {
  reward?: readonly (readonly bigint[])[] | undefined
  gasUsedRatio: readonly number[]
}

/**
 * The tip the history says to pay: each block's reward at the asked percentile (column 0), empty blocks left out (a
 * node reports 0 for a block without transactions, which says nothing about what it takes to get in), then that
 * percentile across the blocks. Undefined when no block had transactions: the caller falls back on the node's own
 * suggestion (eth_maxPriorityFeePerGas).
 */
export function tipFromFeeHistory(history: FeeHistoryRewards, percentile: number): bigint | undefined {
  const tips: bigint[] = []
  history.reward?.forEach((row, index) => {
    const value = row[0]
    if (value !== undefined && (history.gasUsedRatio[index] ?? 0) > 0) tips.push(value)
  })
  return percentileOf(tips, percentile)
}

/** Whether a send lands within the first `launch.blocks` blocks of a launch (from its launch block). */
export function isLaunchTick(policy: Pick<PriorityFeePolicy, 'launch'>, launchBlock: bigint | undefined, landsIn: bigint | undefined): boolean {
  if (launchBlock === undefined || landsIn === undefined) return false
  return landsIn >= launchBlock && landsIn - launchBlock < BigInt(policy.launch.blocks)
}

/** The multiplier as a fraction of 100 (config allows two decimals: 1.5 = 150/100). */
const percentOf = (multiplier: number): bigint => BigInt(Math.round(multiplier * 100))

/**
 * Fees for a send: the policy's tip (the history's or the fixed value; the node's suggestion when the history is
 * empty), times the launch multiplier on a launch tick, never under the node's minimum; the fee cap keeps the
 * estimate's room for the base fee (`baseFeeRoom` = the estimate's max fee minus its own tip) and adds the tip.
 */
export function policyFees(policy: PriorityFeePolicy, chain: { estimate: Fees; historyTip: bigint | undefined }, launchTick: boolean): Fees {
  const { estimate, historyTip } = chain
  const baseTip = policy.tip.kind === 'fixed' ? policy.tip.tipWei : (historyTip ?? estimate.maxPriorityFeePerGas)
  const boosted = launchTick ? (baseTip * percentOf(policy.launch.multiplier)) / 100n : baseTip
  const tip = max(boosted, NODE_MIN_TIP_WEI)
  const baseFeeRoom = max(estimate.maxFeePerGas - estimate.maxPriorityFeePerGas, 0n)
  return { maxPriorityFeePerGas: tip, maxFeePerGas: baseFeeRoom + tip }
}

/** The highest tip per gas a transaction of `gas` may offer under the per-transaction cap. */
export const tipCapPerGas = (policy: Pick<PriorityFeePolicy, 'maxTipWeiPerTx'>, gas: bigint): bigint =>
  gas > 0n ? policy.maxTipWeiPerTx / gas : policy.maxTipWeiPerTx

/**
 * Fees within the cap for a transaction of `gas`: the tip lowered to the cap when over it (the fee cap lowered by the
 * same amount, so the room for the base fee is kept). The cap wins over the node's minimum tip: the config refuses
 * caps too small for a 1-wei tip at the per-transaction gas cap (2^24), so they only meet on larger transactions.
 */
export function withinTipCap(policy: Pick<PriorityFeePolicy, 'maxTipWeiPerTx'>, fees: Fees, gas: bigint): Fees {
  const cap = tipCapPerGas(policy, gas)
  if (fees.maxPriorityFeePerGas <= cap) return fees
  const cut = fees.maxPriorityFeePerGas - cap
  return { maxPriorityFeePerGas: cap, maxFeePerGas: max(fees.maxFeePerGas - cut, cap) }
}

/** At least `value` raised by the replacement minimum, rounded up (the node rounds its threshold down). */
export const raisedForReplacement = (value: bigint): bigint => (value * (100n + REPLACEMENT_BUMP_PERCENT) + 99n) / 100n

/** What a re-send of a stuck transaction offers: new fees a node accepts as a replacement, or none within the cap. */
export type FeeBump = { kind: 'bumped'; fees: Fees } | { kind: 'capped'; tipCap: bigint }

/**
 * Fees for replacing a transaction of `gas` that sent `previous`: the higher of the fresh fees and the previous ones
 * raised by the replacement minimum (tip and fee cap each), the fee cap never under the tip. `capped` when the tip
 * would have to exceed the per-transaction cap to be accepted as a replacement (then nothing is sent: the old
 * transaction stays, and it is never worth two).
 */
export function bumpFees(policy: Pick<PriorityFeePolicy, 'maxTipWeiPerTx'>, previous: Fees, fresh: Fees, gas: bigint): FeeBump {
  const tipCap = tipCapPerGas(policy, gas)
  const tip = max(raisedForReplacement(previous.maxPriorityFeePerGas), min(fresh.maxPriorityFeePerGas, tipCap))
  if (tip > tipCap) return { kind: 'capped', tipCap }
  const freshRoom = max(fresh.maxFeePerGas - fresh.maxPriorityFeePerGas, 0n)
  const maxFeePerGas = max(max(raisedForReplacement(previous.maxFeePerGas), freshRoom + tip), tip)
  return { kind: 'bumped', fees: { maxPriorityFeePerGas: tip, maxFeePerGas } }
}
