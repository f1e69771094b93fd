import type { Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import { allocateBatch } from '../../../src/domain/batch/batch-allocation.ts'
import { type BatchCandidate, clearBatch } from '../../../src/domain/batch/clear-batch.ts'
import { replayBatch } from '../../../src/console/replay/replay-batch.ts'
import type { ExecutableOrder } from '../../../src/domain/execution/executable-order.ts'
import { spendThenLimitPolicy } from '../../../src/domain/execution/prioritisation.ts'
import type { BatchRecord } from '../../../src/journal/batch-records.ts'
import type { OrderEvent } from '../../../src/journal/journal-records.ts'

const USDC = 1_000_000n
const SUPPLY = 10n ** 27n
const wallet = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as const
const TX = `0x${'cd'.repeat(32)}` as Hash

/** A constant-product pool: 1e9 USDC-atoms against 10% of the supply (its price rises with the amount in). */
const pool = (usdcIn: bigint) => {
  const x = 1_000n * USDC
  const y = SUPPLY / 10n
  return (y * usdcIn) / (x + usdcIn)
}

/** Orders: k0..k4 without a limit, k5 with a limit the batch's clearing exceeds, k6 with a generous one. */
const orders: Array<[keyId: string, spend: bigint, limit: bigint | null]> = [
  ['k0', 100n * USDC, null],
  ['k1', 90n * USDC, null],
  ['k2', 80n * USDC, null],
  ['k3', 70n * USDC, null],
  ['k4', 60n * USDC, null],
  // FDV of the pool's spot: 1e9 / 1e26 per atom x 1e27 = 10,000 USD; the batch of ~420 USD moves it ~80%.
  ['k5', 50n * USDC, 12_000n * USDC],
  ['k6', 40n * USDC, 100_000n * USDC],
]

/** What the executor journals: the clearing (its inputs and every pool answer recorded), the entries, the execution. */
function recordedBatch(maxBuyers = 10): { record: BatchRecord; events: OrderEvent[] } {
  const candidates: BatchCandidate<ExecutableOrder>[] = orders.map(([keyId, spend, limit], i) => ({
    order: { id: keyId, wallet: wallet(i), status: 'active', maxSpend: spend, limitFdv: limit, expiresInMs: 0 },
    spend,
  }))
  const evaluations: Array<[string, string]> = []
  const clearing = clearBatch({
    candidates,
    totalSupply: SUPPLY,
    maxBuyers,
    tokensOut: (usdcIn) => {
      const out = pool(usdcIn)
      evaluations.push([usdcIn.toString(), out.toString()])
      return out
    },
  })
  const record: BatchRecord = {
    batchId: `0x${'ab'.repeat(32)}`,
    chain: 'base',
    slug: 'rocket',
    launchBlock: '100',
    sequence: 0,
    tickBlock: '101',
    batchBuyer: wallet(99),
    token: wallet(98),
    lowestLimitFdv: clearing.lowestLimit === null ? null : clearing.lowestLimit.toString(),
    predictedTokensOut: clearing.tokensOut.toString(),
    included: clearing.included.map((inc) => ({
      keyId: inc.candidate.order.id,
      slug: 'rocket',
      userIndex: 0,
      wallet: wallet(Number(inc.candidate.order.wallet.slice(-2))),
      orderId: `0x${'00'.repeat(32)}`,
      spendAtoms: inc.candidate.spend.toString(),
      rank: inc.rank,
      predicted: { gross: inc.gross.toString(), fee: inc.fee.toString(), net: inc.net.toString() },
    })),
    excluded: clearing.excluded.map((exc) => ({
      keyId: exc.candidate.order.id,
      slug: 'rocket',
      wallet: wallet(0),
      spendAtoms: exc.candidate.spend.toString(),
      rank: exc.rank,
      reason: exc.reason,
    })),
    clearing: {
      pool: 'quote',
      policy: spendThenLimitPolicy.name,
      maxBuyers,
      totalSupply: SUPPLY.toString(),
      candidates: orders.map(([keyId, spend, limit]) => [keyId, spend.toString(), limit === null ? null : limit.toString(), spend.toString()]),
      evaluations,
    },
    state: 'swept',
    at: 1,
    swept: clearing.included.length,
  }
  // The chain's output: a little less than predicted (another swap landed first); the settle credits allocateBatch's.
  const tokensOut = (clearing.tokensOut * 999n) / 1000n
  const paid = record.included.map((e) => BigInt(e.spendAtoms))
  const allocation = allocateBatch(tokensOut, paid)
  record.execution = {
    txHash: TX,
    blockNumber: '102',
    totalIn: paid.reduce((a, b) => a + b, 0n).toString(),
    tokensOut: tokensOut.toString(),
    skipped: [],
    allocationHash: `0x${'11'.repeat(32)}`,
  }
  const events: OrderEvent[] = record.included.map((e, i) => ({
    keyId: e.keyId,
    slug: 'rocket',
    from: 'executing',
    to: 'filled',
    at: 2,
    txHash: TX,
    blockNumber: '102',
    spendAtoms: e.spendAtoms,
    tokensReceived: allocation.shares[i]!.net.toString(),
    feeTokens: allocation.shares[i]!.fee.toString(),
  }))
  return { record, events }
}

describe('executions replay --check: a journaled batch cleared and allocated again from the journal alone', () => {
  it('reproduces the inclusion by the priority rule, the exclusion with its reason, the committed lowest limit and the allocation', () => {
    const { record, events } = recordedBatch()
    // The fixture is the case worth checking: one order left out for its limit, one limit committed.
    expect(record.excluded.map((e) => [e.keyId, e.reason])).toEqual([['k5', 'limit_below_clearing']])
    expect(record.lowestLimitFdv).toBe((100_000n * USDC).toString())
    const replay = replayBatch(record, events)
    expect(replay).toEqual({ batchId: record.batchId, sequence: 0, tickBlock: '101', checkable: true, allocationChecked: true, differences: [] })
  })

  it('a gas budget cut is reproduced too (the buyers past maxBuyers, in priority order)', () => {
    const { record, events } = recordedBatch(3)
    expect(record.excluded.map((e) => [e.keyId, e.reason])).toEqual([
      ['k3', 'gas_budget'],
      ['k4', 'gas_budget'],
      ['k5', 'gas_budget'],
      ['k6', 'gas_budget'],
    ])
    expect(replayBatch(record, events).differences).toEqual([])
  })

  it('a journal whose inclusion was tampered with fails, naming the order', () => {
    const { record, events } = recordedBatch()
    const k5 = record.excluded[0]!
    record.excluded = []
    record.included.push({ ...record.included[0]!, keyId: k5.keyId, rank: k5.rank, spendAtoms: k5.spendAtoms })
    const { differences } = replayBatch(record, events)
    expect(differences).toContain('order k5: included at rank 5, today left out (limit_below_clearing) at rank 5')
  })

  it('a tampered exclusion reason, committed limit or predicted output fails', () => {
    const reason = recordedBatch()
    reason.record.excluded[0]!.reason = 'gas_budget'
    expect(replayBatch(reason.record, reason.events).differences).toEqual([
      'order k5: left out (gas_budget) at rank 5, today left out (limit_below_clearing) at rank 5',
    ])
    const limit = recordedBatch()
    limit.record.lowestLimitFdv = '1'
    expect(replayBatch(limit.record, limit.events).differences).toEqual([`committed lowest limit 1, today ${100_000n * USDC}`])
    const predicted = recordedBatch()
    predicted.record.included[2]!.predicted = { ...predicted.record.included[2]!.predicted, net: '1' }
    expect(replayBatch(predicted.record, predicted.events).differences).toEqual([
      `order k2: predicted share 1 net (${predicted.record.included[2]!.predicted.fee} fee), today ${recordedBatch().record.included[2]!.predicted.net} (${predicted.record.included[2]!.predicted.fee})`,
    ])
  })

  it('a tampered pool answer or candidate fails (the clearing asks for what the journal does not hold, or decides otherwise)', () => {
    const { record, events } = recordedBatch()
    // k5's limit raised past the clearing: today it is included, and k6 then meets a price nobody recorded.
    record.clearing!.candidates[5]![2] = (10n ** 9n * USDC).toString()
    const differences = replayBatch(record, events).differences
    expect(differences).toContain('order k5: left out (limit_below_clearing) at rank 5, today included at rank 5')
    expect(differences).toContain('order k6: included at rank 6, today left out (limit_below_clearing) at rank 6')
    expect(differences).toContain(`the clearing prices ${490n * USDC} stablecoin atoms today, which the journal holds no pool answer for`)
    // A pool answer removed: the order whose turn it was is named (without the answer it cannot be included).
    const answers = recordedBatch()
    answers.record.clearing!.evaluations = answers.record.clearing!.evaluations.filter(([amount]) => amount !== (440n * USDC).toString())
    const lines = replayBatch(answers.record, answers.events).differences
    expect(lines).toContain('order k6: included at rank 6, today left out (limit_below_clearing) at rank 6')
    expect(lines).toContain(`the clearing prices ${440n * USDC} stablecoin atoms today, which the journal holds no pool answer for`)
  })

  it('an allocation that is not the chain output split pro rata fails, naming the order; a skipped buyer must not be filled', () => {
    const credited = recordedBatch()
    credited.events[1] = { ...credited.events[1]!, tokensReceived: (BigInt(credited.events[1]!.tokensReceived!) + 1n).toString() }
    const [line] = replayBatch(credited.record, credited.events).differences
    expect(line).toMatch(/^order k1: credited \d+ tokens \(fee \d+\), the allocation of \d+ gives \d+ \(fee \d+\)$/)

    const output = recordedBatch()
    output.record.execution!.tokensOut = (BigInt(output.record.execution!.tokensOut) * 2n).toString()
    expect(replayBatch(output.record, output.events).differences).toHaveLength(output.record.included.length)

    const skipped = recordedBatch()
    skipped.record.execution!.skipped = [0]
    const lines = replayBatch(skipped.record, skipped.events).differences
    expect(lines[0]).toMatch(/^paid in \d+ by the journaled entries, the chain says \d+$/)
    expect(lines).toContain('order k0: filled, but the chain skipped it (index 0)')

    const missing = recordedBatch()
    expect(replayBatch(missing.record, missing.events.slice(1)).differences).toEqual([`order k0: paid ${100n * USDC} into the batch, no fill recorded`])
  })

  it('an order dropped between clearing and the write (changed under the executor) counts as cleared in; the committed limit is of those sent', () => {
    const { record, events } = recordedBatch()
    // k6 (the only limit) was PATCHed under the executor: dropped, so nothing is committed.
    const k6 = record.included.findIndex((e) => e.keyId === 'k6')
    record.dropped = record.included.splice(k6, 1)
    record.lowestLimitFdv = null
    record.execution!.totalIn = record.included.reduce((a, e) => a + BigInt(e.spendAtoms), 0n).toString()
    const allocation = allocateBatch(
      BigInt(record.execution!.tokensOut),
      record.included.map((e) => BigInt(e.spendAtoms)),
    )
    const fills = record.included.map((e, i) => ({
      ...events[0]!,
      keyId: e.keyId,
      tokensReceived: allocation.shares[i]!.net.toString(),
      feeTokens: allocation.shares[i]!.fee.toString(),
    }))
    expect(replayBatch(record, fills).differences).toEqual([])
  })

  it('a batch journaled without its clearing inputs is not checkable (its allocation still is)', () => {
    const { record, events } = recordedBatch()
    const { clearing: _dropped, ...old } = record
    const replay = replayBatch(old, events)
    expect(replay.checkable).toBe(false)
    expect(replay.allocationChecked).toBe(true)
    expect(replay.differences).toEqual([])
  })
})
