import { describe, expect, it } from 'vitest'
import { parsePushedLog } from '../../../src/sync/pushed-log.ts'

const raw = {
  address: '0x5FbDB2315678afecb367f032d93F642f64180aa3',
  topics: [`0x${'11'.repeat(32)}`],
  data: '0x00ff',
  blockHash: `0x${'22'.repeat(32)}`,
  blockNumber: '0x1a',
  blockTimestamp: '0x6b0933e9',
  transactionHash: `0x${'33'.repeat(32)}`,
  transactionIndex: '0x0',
  logIndex: '0x2',
  removed: false,
}

describe('a pushed log (logs subscription) checked for shape', () => {
  it('reads a well-formed log, numbers as numbers, the block time when the node adds it', () => {
    expect(parsePushedLog(raw)).toMatchObject({
      address: raw.address.toLowerCase(),
      blockNumber: 26n,
      logIndex: 2,
      transactionIndex: 0,
      blockTimestamp: 0x6b0933e9n,
      removed: false,
    })
    const { blockTimestamp: _, ...withoutTime } = raw
    expect(parsePushedLog(withoutTime)?.blockTimestamp).toBeUndefined()
    expect(parsePushedLog({ ...raw, topics: [] })?.topics).toEqual([])
  })

  it('drops a malformed or forged shape and a retraction, never throws', () => {
    const bad: unknown[] = [
      null,
      undefined,
      'a string',
      7,
      [],
      { ...raw, removed: true },
      { ...raw, address: '0x12' },
      { ...raw, address: 5 },
      { ...raw, topics: 'x' },
      { ...raw, topics: ['0x12'] },
      { ...raw, topics: Array(5).fill(`0x${'11'.repeat(32)}`) },
      { ...raw, data: '0x0' },
      { ...raw, data: 7 },
      { ...raw, blockHash: null },
      { ...raw, blockNumber: 'next' },
      { ...raw, blockNumber: `0x${'f'.repeat(17)}` },
      { ...raw, transactionHash: undefined },
      { ...raw, logIndex: -1 },
      { ...raw, transactionIndex: undefined },
    ]
    for (const value of bad) expect(parsePushedLog(value)).toBeUndefined()
  })
})
