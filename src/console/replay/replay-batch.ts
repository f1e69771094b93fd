import type { BatchEntryRecord, BatchRecord } from '../../journal/batch-records.ts'
import type { OrderEvent } from '../../journal/journal-records.ts'
import type { ExecutableOrder } from '../../domain/execution/executable-order.ts'
import { type PrioritisationPolicy, spendThenLimitPolicy } from '../../domain/execution/prioritisation.ts'
import { allocateBatch } from '../../domain/batch/batch-allocation.ts'
import { type BatchCandidate, clearBatch } from '../../domain/batch/clear-batch.ts'

/**
 * `prebuy executions replay --check` for one journaled batch: its clearing decided again with today's code (clearBatch)
 * from what the record holds (the candidates as the priority rule saw them, every answer the pool function gave), and
 * its allocation recomputed (allocateBatch) from the swap's output the chain reported, against what each order was
 * credited. Pure: the journal's records in, differences out.
 */
export interface BatchReplay {
  batchId: string
  sequence: number
  tickBlock: string
  /** Whether the record holds what the clearing was decided from (batches journaled before it was recorded do not). */
  checkable: boolean
  /** Whether the allocation was checked (the batch executed on chain). */
  allocationChecked: boolean
  /** Every difference, one line each, naming the order. */
  differences: string[]
}

const limitText = (limit: bigint | string | null | undefined) => (limit === null || limit === undefined ? 'none' : limit.toString())

/**
 * Decides `record`'s batch again. `events`: the launch's order events (the batch's fills are those `filled` in its
 * transaction: their credited tokens and fee must be the allocation's). `policy`: today's (the recorded name must match).
 */
export function replayBatch(record: BatchRecord, events: readonly OrderEvent[], policy: PrioritisationPolicy = spendThenLimitPolicy): BatchReplay {
  const out: BatchReplay = {
    batchId: record.batchId,
    sequence: record.sequence,
    tickBlock: record.tickBlock,
    checkable: record.clearing !== undefined,
    allocationChecked: false,
    differences: [],
  }
  const differences = out.differences
  const clearing = record.clearing
  if (clearing) {
    if (clearing.policy !== policy.name) differences.push(`policy ${clearing.policy}, today ${policy.name}`)
    differences.push(...clearingDifferences(record, clearing, policy))
  }
  if (record.execution) {
    out.allocationChecked = true
    differences.push(...allocationDifferences(record, record.execution, events))
  }
  return out
}

function clearingDifferences(record: BatchRecord, clearing: NonNullable<BatchRecord['clearing']>, policy: PrioritisationPolicy): string[] {
  const differences: string[] = []
  const answers = new Map(clearing.evaluations.map(([stablecoinIn, tokensOut]) => [stablecoinIn, BigInt(tokensOut)]))
  const limitOf = new Map<string, bigint | null>()
  const candidates: BatchCandidate<ExecutableOrder & { keyId: string }>[] = clearing.candidates.map(([keyId, maxSpend, limit, spend]) => {
    const limitFdv = limit === null ? null : BigInt(limit)
    limitOf.set(keyId, limitFdv)
    return { order: { id: keyId, keyId, wallet: '', status: 'active', maxSpend: BigInt(maxSpend), limitFdv, expiresInMs: 0 }, spend: BigInt(spend) }
  })
  // An amount the journal holds no answer for means today's walk left the recorded one (another order's turn, another
  // prefix): it is answered as "no tokens" (which fails any limit) so the walk goes on and the orders whose fate changed
  // are named below, and the amount is reported.
  const unrecorded: bigint[] = []
  const today = clearBatch({
    candidates,
    totalSupply: BigInt(clearing.totalSupply),
    maxBuyers: clearing.maxBuyers,
    policy,
    tokensOut: (stablecoinIn) => {
      const answer = answers.get(stablecoinIn.toString())
      if (answer !== undefined) return answer
      unrecorded.push(stablecoinIn)
      return 0n
    },
  })

  // What the clearing decided, as recorded: the included (sent or dropped before the write) and the left out.
  const recordedIn = new Map<string, BatchEntryRecord>([...record.included, ...(record.dropped ?? [])].map((e) => [e.keyId, e]))
  const recordedOut = new Map(record.excluded.map((e) => [e.keyId, e]))
  const todayIn = new Map(today.included.map((inc) => [inc.candidate.order.keyId, inc]))
  const todayOut = new Map(today.excluded.map((exc) => [exc.candidate.order.keyId, exc]))
  for (const [keyId] of clearing.candidates) {
    const was = recordedIn.get(keyId)
    const wasOut = recordedOut.get(keyId)
    const is = todayIn.get(keyId)
    const isOut = todayOut.get(keyId)
    const recordedFate = was ? `included at rank ${was.rank}` : wasOut ? `left out (${wasOut.reason}) at rank ${wasOut.rank}` : 'in neither list'
    const todayFate = is ? `included at rank ${is.rank}` : isOut ? `left out (${isOut.reason}) at rank ${isOut.rank}` : 'in neither list'
    if (recordedFate !== todayFate) {
      differences.push(`order ${keyId}: ${recordedFate}, today ${todayFate}`)
      continue
    }
    if (was && is) {
      if (was.spendAtoms !== is.candidate.spend.toString()) differences.push(`order ${keyId}: spend ${was.spendAtoms}, today ${is.candidate.spend}`)
      else if (was.predicted.gross !== is.gross.toString() || was.predicted.net !== is.net.toString() || was.predicted.fee !== is.fee.toString()) {
        differences.push(`order ${keyId}: predicted share ${was.predicted.net} net (${was.predicted.fee} fee), today ${is.net} (${is.fee})`)
      }
    } else if (wasOut && isOut && wasOut.spendAtoms !== isOut.candidate.spend.toString()) {
      differences.push(`order ${keyId}: spend ${wasOut.spendAtoms}, today ${isOut.candidate.spend}`)
    }
  }
  const candidateIds = new Set(clearing.candidates.map(([keyId]) => keyId))
  for (const keyId of [...recordedIn.keys(), ...recordedOut.keys()]) {
    if (!candidateIds.has(keyId)) differences.push(`order ${keyId}: in the batch but not among its recorded candidates`)
  }
  for (const amount of unrecorded) differences.push(`the clearing prices ${amount} stablecoin atoms today, which the journal holds no pool answer for`)
  if (record.predictedTokensOut !== today.tokensOut.toString()) {
    differences.push(`predicted tokens out ${record.predictedTokensOut}, today ${today.tokensOut}`)
  }
  // The committed bound: the lowest limit of the orders sent (the clearing's, less any dropped before the write).
  let lowest: bigint | null = null
  for (const e of record.included) {
    const limit = limitOf.get(e.keyId) ?? null
    if (limit !== null && (lowest === null || limit < lowest)) lowest = limit
  }
  if ((record.lowestLimitFdv ?? null) !== (lowest === null ? null : lowest.toString())) {
    differences.push(`committed lowest limit ${limitText(record.lowestLimitFdv)}, today ${limitText(lowest)}`)
  }
  return differences
}

function allocationDifferences(record: BatchRecord, execution: NonNullable<BatchRecord['execution']>, events: readonly OrderEvent[]): string[] {
  const differences: string[] = []
  const skipped = new Set(execution.skipped)
  const paid = record.included.map((e, i) => (skipped.has(i) ? 0n : BigInt(e.spendAtoms)))
  const totalIn = paid.reduce((a, b) => a + b, 0n)
  if (totalIn.toString() !== execution.totalIn) differences.push(`paid in ${totalIn} by the journaled entries, the chain says ${execution.totalIn}`)
  const allocation = allocateBatch(BigInt(execution.tokensOut), paid)
  const fills = new Map<string, OrderEvent>()
  for (const event of events) if (event.to === 'filled' && event.txHash === execution.txHash && event.slug === record.slug) fills.set(event.keyId, event)
  for (const [i, entry] of record.included.entries()) {
    const fill = fills.get(entry.keyId)
    if (skipped.has(i)) {
      if (fill) differences.push(`order ${entry.keyId}: filled, but the chain skipped it (index ${i})`)
      continue
    }
    const share = allocation.shares[i]!
    if (!fill) {
      differences.push(`order ${entry.keyId}: paid ${entry.spendAtoms} into the batch, no fill recorded`)
      continue
    }
    if (fill.tokensReceived !== share.net.toString() || fill.feeTokens !== share.fee.toString()) {
      differences.push(
        `order ${entry.keyId}: credited ${fill.tokensReceived ?? '-'} tokens (fee ${fill.feeTokens ?? '-'}), the allocation of ${execution.tokensOut} gives ${share.net} (fee ${share.fee})`,
      )
    }
  }
  return differences
}
