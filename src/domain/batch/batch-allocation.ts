import { PLATFORM_FEE_BPS } from '../execution/platform-fee.ts'
import { splitProRata } from './pro-rata.ts'

const BPS = 10_000n

/** One paying buyer's part of a batch's swap output, in token atoms. */
export interface BatchShare {
  /** The buyer's pro-rata part of the whole output, rounded down: floor(tokensOut * spend / totalIn). */
  gross: bigint
  /** The platform fee on it: floor(gross * feeBps / 10,000), as PrebuyBuyRouter takes it on a single buy. */
  fee: bigint
  /** What the buyer is credited: gross - fee. */
  net: bigint
}

export interface BatchAllocation {
  shares: BatchShare[]
  /** To the fee recipient: every fee plus the rounding dust, so that sum(net) + feeTotal === tokensOut exactly. */
  feeTotal: bigint
  /** tokensOut - sum(gross): the floors' remainder (fewer atoms than buyers), part of feeTotal. */
  dust: bigint
}

/**
 * Splits one swap's output among the buyers who paid into it, pro rata to what each paid, less the platform fee.
 * The dust rule: every share is rounded down and the remainder goes to the fee recipient. Why the fee recipient and
 * not, say, the largest spender: no buyer is ever credited more than its exact share, so no buyer gets a better price
 * than the clearing price and the per-buyer limit guarantee (stated on the rounded-down gross share) holds as proved;
 * and PrebuyBatchBuyer computes it in one pass with no sorting. The same integer formula runs on chain
 * (src/chain/contracts/execution/PrebuyBatchBuyer.sol): this is its reference, and the two are tested to agree.
 * `spends`: what each buyer actually paid (0 for a buyer the batch skipped: it gets nothing).
 */
export function allocateBatch(tokensOut: bigint, spends: readonly bigint[], feeBps: bigint = PLATFORM_FEE_BPS): BatchAllocation {
  if (tokensOut < 0n) throw new RangeError('tokensOut must not be negative')
  if (feeBps < 0n || feeBps > BPS) throw new RangeError('feeBps must be within 0..10000')
  if (spends.some((spend) => spend < 0n)) throw new RangeError('a spend must not be negative')
  // The gross shares are the pooled purchases' one pro-rata rule (pro-rata.ts); the fee per share and the dust to the
  // fee recipient are the batch's own (its contract's).
  const { parts: grosses, totalWeight: totalIn, remainder: dust } = splitProRata(tokensOut, spends)
  if (totalIn === 0n && tokensOut !== 0n) throw new RangeError('tokens out of a swap nobody paid into')
  const shares: BatchShare[] = new Array(spends.length)
  let netSum = 0n
  for (let i = 0; i < spends.length; i++) {
    const gross = grosses[i]!
    const fee = (gross * feeBps) / BPS
    shares[i] = { gross, fee, net: gross - fee }
    netSum += gross - fee
  }
  return { shares, feeTotal: tokensOut - netSum, dust }
}
