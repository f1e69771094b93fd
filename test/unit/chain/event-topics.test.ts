import { decodeEventLog, encodeEventTopics, parseAbi, toEventSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { eventTopicsOf, mayBeEventOf } from '../../../src/chain/event-topics.ts'

const ABI = parseAbi([
  'event FeeScheduleSet(bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds)',
  'event Other(uint256 value)',
  'function notAnEvent(uint256) view returns (uint256)',
])
const TRANSFER = toEventSelector('Transfer(address,address,uint256)')

/** The first-topic filter that spares viem's refusals (event-topics.ts): it keeps every log decodeEventLog would accept. */
describe('eventTopicsOf / mayBeEventOf', () => {
  it("names exactly the ABI's events, and lets through a log of each whatever the case of its topic", () => {
    const topics = eventTopicsOf(ABI)
    expect([...topics].sort()).toEqual([toEventSelector(ABI[0]), toEventSelector(ABI[1])].map((t) => t.toLowerCase()).sort())
    const [selector, poolId] = encodeEventTopics({ abi: ABI, eventName: 'FeeScheduleSet', args: { poolId: `0x${'ab'.repeat(32)}` } }) as `0x${string}`[]
    expect(mayBeEventOf(topics, { topics: [selector!.toUpperCase().replace('0X', '0x') as `0x${string}`, poolId!] })).toBe(true)
    expect(mayBeEventOf(topics, { topics: [selector!, poolId!] })).toBe(true)
  })

  it('turns away another event and an anonymous log (no topic), which decodeEventLog refuses too', () => {
    const topics = eventTopicsOf(ABI)
    const transfer = {
      topics: [TRANSFER, `0x${'00'.repeat(32)}`, `0x${'00'.repeat(32)}`] as [`0x${string}`, ...`0x${string}`[]],
      data: `0x${'00'.repeat(32)}` as const,
    }
    expect(mayBeEventOf(topics, transfer)).toBe(false)
    expect(() => decodeEventLog({ abi: ABI, ...transfer, strict: true })).toThrow()
    expect(mayBeEventOf(topics, { topics: [] })).toBe(false)
  })
})
