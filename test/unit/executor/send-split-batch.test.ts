import { type Address, encodeFunctionData, type Hash, zeroAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { batchBuyerAbi } from '../../../daemon/executor/batch-buyer-abi.ts'
import { chunkEntries, type SplitSenderContext, sendSplitBatch } from '../../../daemon/executor/send-split-batch.ts'
import { SHARES_PENDING, sharesLater } from '../../../daemon/executor/shares-later.ts'
import type { BatchEntryRecord, BatchRecord, SplitBatchRecord } from '../../../src/journal/batch-records.ts'
import type { LaunchRecord } from '../../../src/journal/journal-records.ts'

// sendSplitBatch's order of work with a fake sender (no chain): what it hands each send, and when, by order of events.
const STABLECOIN = `0x${'51'.repeat(20)}` as Address
const BUYER = `0x${'b0'.repeat(20)}` as Address
const OPERATORS = [`0x${'01'.repeat(20)}`, `0x${'02'.repeat(20)}`] as Address[]
const BATCH_ID = `0x${'ba'.repeat(32)}` as Hash

const entry = (i: number): BatchEntryRecord => ({
  keyId: `k${i}`,
  slug: 's',
  userIndex: i,
  wallet: `0x${(i + 1).toString(16).padStart(40, 'c')}` as Address,
  orderId: `0x${i.toString(16).padStart(64, '0')}` as Hash,
  spendAtoms: String(1_000_000 + i),
  rank: i,
  predicted: { gross: '0', fee: '0', net: '0' },
})

function splitRecord(buyers: number, perChunk: number): BatchRecord & { split: SplitBatchRecord } {
  const chunks = Array.from({ length: Math.ceil(buyers / perChunk) }, (_, chunk) => ({
    chunk,
    from: chunk * perChunk,
    to: Math.min(buyers, (chunk + 1) * perChunk),
    operator: OPERATORS[chunk % OPERATORS.length]!,
    gasLimit: '1000000',
  }))
  return {
    batchId: BATCH_ID,
    chain: 'base',
    slug: 's',
    launchBlock: '100',
    sequence: 0,
    tickBlock: '101',
    validUntilBlock: '140',
    batchBuyer: BUYER,
    token: zeroAddress,
    lowestLimitFdv: null,
    predictedTokensOut: '0',
    included: Array.from({ length: buyers }, (_, i) => entry(i)),
    excluded: [],
    state: 'journaled',
    at: 0,
    swept: 0,
    split: { maxBuyersPerChunk: perChunk, txGasCap: String(2 ** 24), operators: OPERATORS, chunks, settle: { operator: OPERATORS[0]!, gasLimit: '900000' } },
  }
}

const launch = {
  paired: {},
  poolKey: { currency0: zeroAddress, currency1: zeroAddress, fee: 0, tickSpacing: 1, hooks: zeroAddress },
  token: zeroAddress,
} as unknown as LaunchRecord

function harness(refuse: (data: string) => boolean = () => false) {
  const events: string[] = []
  const sent: Array<{ data: string; fields: Record<string, unknown>; options: { moment?: Record<string, unknown> } | undefined }> = []
  let n = 0
  const ctx = {
    chains: { base: { addresses: { stablecoin: STABLECOIN, weth: zeroAddress, ethUsdPool: zeroAddress } } },
    feeRecipient: zeroAddress,
    log: { warn: () => undefined, info: () => undefined, error: () => undefined, debug: () => undefined },
    stage: (name: string) => events.push(name),
    wallets: {
      sendFromAccount: async (
        _chain: string,
        _account: Address,
        call: { data: string },
        fields: Record<string, unknown>,
        options?: { moment?: Record<string, unknown> },
      ) => {
        const what = fields.settle ? 'settle' : `collect ${fields.chunk}`
        events.push(`send ${what}`)
        // What a real send does before its request leaves: a few awaits (the fee read, the nonce queue, signing).
        for (let i = 0; i < 5; i++) await Promise.resolve()
        if (refuse(call.data)) throw new Error('refused by the fake node')
        events.push(`wire ${what}`)
        sent.push({ data: call.data, fields, options })
        const hash = `0x${(++n).toString(16).padStart(64, '0')}` as Hash
        return { hash, from: OPERATORS[0]!, nonce: n, landed: Promise.resolve({ receipt: undefined, pending: false }), maxPriorityFeePerGas: 10n }
      },
    },
  } as unknown as SplitSenderContext
  return { ctx, events, sent }
}

describe('sendSplitBatch', () => {
  it("puts the first collect's request out before any other collect is encoded, each with viem's calldata for its chunk, then the settle", async () => {
    const { ctx, events, sent } = harness()
    const record = splitRecord(10, 3)
    const outcome = await sendSplitBatch(ctx, record, launch, async () => undefined)
    expect(outcome.kind).toBe('sent')
    const at = (name: string) => {
      const i = events.indexOf(name)
      expect(i, `${name} in ${events.join(', ')}`).toBeGreaterThanOrEqual(0)
      return i
    }
    for (let k = 1; k < record.split.chunks.length; k++) expect(at(`split.collectEncoded.${k}`)).toBeGreaterThan(at('wire collect 0'))
    // The sends start in chunk order (each account's nonces follow it).
    expect(events.filter((e) => e.startsWith('send collect'))).toEqual(record.split.chunks.map((c) => `send collect ${c.chunk}`))
    expect(at('send settle')).toBeGreaterThan(Math.max(...record.split.chunks.map((c) => at(`wire collect ${c.chunk}`))))
    for (const c of record.split.chunks) {
      const expected = encodeFunctionData({
        abi: batchBuyerAbi,
        functionName: 'collect',
        args: [BATCH_ID, STABLECOIN, BigInt(c.chunk), chunkEntries(record, c), 140n, []],
      })
      expect(sent.find((s) => s.fields.chunk === c.chunk)?.data).toBe(expected)
    }
  })

  it("sends the collects and the settle as one group, the batch id (one pending-nonce check for them all: chain-now.ts), at the launch's moment", async () => {
    const { ctx, sent } = harness()
    const record = splitRecord(7, 3)
    await sendSplitBatch(ctx, record, launch, async () => undefined)
    expect(sent).toHaveLength(4)
    for (const s of sent) expect(s.options?.moment).toEqual({ launchBlock: 100n, landsIn: 102n, group: BATCH_ID })
  })

  it('a collect whose entry cannot be encoded is not sent; the others and the settle are', async () => {
    const { ctx, events } = harness()
    const record = splitRecord(6, 2)
    record.included[3] = { ...record.included[3]!, spendAtoms: '0' }
    const recorded: SplitBatchRecord[] = []
    const outcome = await sendSplitBatch(ctx, record, launch, async (split) => void recorded.push(split))
    expect(outcome.kind).toBe('sent')
    expect(events.filter((e) => e.startsWith('wire '))).toEqual(['wire collect 0', 'wire collect 2', 'wire settle'])
    expect(recorded[0]!.chunks.map((c) => c.txHash !== undefined)).toEqual([true, false, true])
  })

  it("a record's pending shares (shares-later.ts) are filled in after every collect and the settle went out, before the record is handed to onSent", async () => {
    for (const refuseAll of [false, true]) {
      const { ctx, events } = harness(() => refuseAll)
      const record = splitRecord(6, 2)
      for (const e of record.included) e.predicted = SHARES_PENDING
      sharesLater(record, () => {
        events.push('shares filled')
        for (const e of record.included) e.predicted = { gross: '1', fee: '0', net: '1' }
      })
      let pendingAtOnSent: boolean | undefined
      await sendSplitBatch(ctx, record, launch, async () => {
        events.push('onSent')
        pendingAtOnSent = record.included.some((e) => e.predicted === SHARES_PENDING)
      })
      expect(pendingAtOnSent).toBe(false)
      const filled = events.indexOf('shares filled')
      expect(filled).toBeLessThan(events.indexOf('onSent'))
      // Not before anything was sent: after every send's request (or refusal) returned.
      const sends = events.flatMap((e, i) => (e.startsWith('send ') || e.startsWith('wire ') ? [i] : []))
      expect(filled).toBeGreaterThan(Math.max(...sends))
    }
  })

  it('no collect sent: nothing but the record of it, and not_sent', async () => {
    const { ctx, events } = harness(() => true)
    const outcome = await sendSplitBatch(ctx, splitRecord(4, 2), launch, async () => undefined)
    expect(outcome).toEqual({ kind: 'not_sent', reason: 'no collect of the split batch could be sent' })
    expect(events.some((e) => e.includes('settle'))).toBe(false)
  })
})
