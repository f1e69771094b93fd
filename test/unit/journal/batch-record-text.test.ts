import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { arrayText, batchRecordText, candidateRowText, entryHeadText, entryText, rememberArrayText } from '../../../src/journal/batch-record-text.ts'
import type { BatchClearingRecord, BatchEntryRecord, BatchRecord } from '../../../src/journal/batch-records.ts'

// Strings with what JSON must escape (quotes, backslashes, control characters, lone surrogates) besides plain ones.
const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom('', '"', '\\', '\u0000', '\ud800', 'a"b\\c\n'))
const digits = fc.bigInt({ min: -(10n ** 30n), max: 10n ** 40n }).map((n) => n.toString())
const hex = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), minLength: n, maxLength: n }).map((s) => `0x${s}`)

const entry = fc.record({
  keyId: text,
  slug: text,
  userIndex: fc.nat(),
  wallet: hex(40),
  orderId: hex(64),
  spendAtoms: digits,
  rank: fc.nat(),
  predicted: fc.record({ gross: digits, fee: digits, net: digits }),
}) as fc.Arbitrary<BatchEntryRecord>
const row = fc.tuple(text, digits, fc.option(digits, { nil: null }), digits) as fc.Arbitrary<BatchClearingRecord['candidates'][number]>

/** The entries as plan-batch.ts writes them: each object with its text from a head and what the launch decided. */
function withTexts(entries: BatchEntryRecord[]): BatchEntryRecord[] {
  const texts = entries.map((e) => entryText(entryHeadText(e), e.rank, e.predicted.gross, e.predicted.fee, e.predicted.net))
  rememberArrayText(entries, arrayText(texts))
  return entries
}
function rowsWithText(rows: BatchClearingRecord['candidates']): BatchClearingRecord['candidates'] {
  rememberArrayText(rows, arrayText(rows.map(candidateRowText)))
  return rows
}

const record = fc.record(
  {
    batchId: hex(64),
    chain: fc.constant('base'),
    slug: text,
    launchBlock: digits,
    sequence: fc.nat(),
    tickBlock: digits,
    validUntilBlock: fc.option(digits, { nil: undefined }),
    batchBuyer: hex(40),
    token: hex(40),
    lowestLimitFdv: fc.option(digits, { nil: null }),
    predictedTokensOut: digits,
    included: fc.array(entry, { maxLength: 30 }),
    excluded: fc.array(fc.record({ keyId: text, slug: text, wallet: hex(40), spendAtoms: digits, rank: fc.nat(), reason: fc.constantFrom('gas', 'limit') }), {
      maxLength: 5,
    }),
    clearing: fc.option(
      fc.record({
        pool: fc.constantFrom('quote', 'formula'),
        policy: text,
        maxBuyers: fc.nat(),
        totalSupply: digits,
        candidates: fc.array(row, { maxLength: 30 }),
        evaluations: fc.array(fc.tuple(digits, digits), { maxLength: 4 }),
      }),
      { nil: undefined },
    ),
    state: fc.constantFrom('journaled', 'sent', 'executed', 'swept', 'released'),
    at: fc.nat(),
    swept: fc.nat(),
    txHash: fc.option(hex(64), { nil: undefined }),
  },
  { requiredKeys: ['batchId', 'chain', 'slug', 'included', 'excluded', 'state'] },
) as unknown as fc.Arbitrary<BatchRecord>

describe('the batch record\'s JSON text from parts written ahead (docs/execution.md §8, "The commit record\'s text, written ahead")', () => {
  it("is byte for byte JSON.stringify of the record, with the entries' text, the rows' text, both or neither held", () => {
    fc.assert(
      fc.property(record, fc.boolean(), fc.boolean(), (r, entries, rows) => {
        const built = { ...r, included: entries ? withTexts(r.included) : r.included }
        if (built.clearing && rows) built.clearing = { ...built.clearing, candidates: rowsWithText(built.clearing.candidates) }
        const made = batchRecordText(built)
        const heldRows = rows && built.clearing !== undefined
        if (!entries && !heldRows) expect(made).toBeUndefined()
        else expect(made).toBe(JSON.stringify(built))
        // A copy of the record (a later state, the same arrays) keeps the held parts, and the exact text.
        const sent = { ...built, state: 'sent' as const, txHash: `0x${'1'.repeat(64)}` as const }
        if (made !== undefined) expect(batchRecordText(sent)).toBe(JSON.stringify(sent))
      }),
      { numRuns: 300 },
    )
  })

  it('never uses a held text for an array whose length changed since (stringified as always then)', () => {
    const e = withTexts([
      {
        keyId: 'a',
        slug: 's',
        userIndex: 1,
        wallet: `0x${'a'.repeat(40)}`,
        orderId: `0x${'b'.repeat(64)}`,
        spendAtoms: '5',
        rank: 0,
        predicted: { gross: '1', fee: '0', net: '1' },
      },
    ] as BatchEntryRecord[])
    e.push({ ...e[0]!, keyId: 'b', rank: 1 })
    const r = { batchId: '0x01', included: e, excluded: [], state: 'journaled' } as unknown as BatchRecord
    expect(batchRecordText(r)).toBeUndefined()
  })

  it("writes a member left undefined as JSON.stringify does (left out), in the record's own key order", () => {
    const included = withTexts([])
    const r = { z: 1, included, validUntilBlock: undefined, a: 'x', clearing: undefined } as unknown as BatchRecord
    expect(batchRecordText(r)).toBe('{"z":1,"included":[],"a":"x"}')
    expect(batchRecordText(r)).toBe(JSON.stringify(r))
  })
})
