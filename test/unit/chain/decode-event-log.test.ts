import fc from 'fast-check'
import {
  type AbiEvent,
  type AbiParameter,
  decodeEventLog,
  encodeAbiParameters,
  encodeEventTopics,
  type Hex,
  parseAbi,
  parseAbiParameters,
  toEventSelector,
} from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeEventLogCached } from '../../../src/chain/decode-event-log.ts'
import { POOL_MANAGER_EVENTS } from '../../../src/launchpads/v4-events.ts'

/** Events of the shapes the daemon decodes (the PoolManager's), and others viem treats apart: unnamed, hashed topics. */
const ABI = [
  ...POOL_MANAGER_EVENTS,
  ...parseAbi([
    'event Transfer(address indexed from, address indexed to, uint256 value)',
    'event Created(address indexed token, string name, string indexed symbol, uint256[] amounts, bool flag)',
    'event Unnamed(address indexed, uint24, int24)',
    'event NoData(bytes32 indexed id)',
  ]),
  // An anonymous event (no signature topic): viem matches it only by name or when every event is anonymous.
  {
    type: 'event',
    name: 'Anon',
    anonymous: true,
    inputs: [
      { name: 'who', type: 'address', indexed: true },
      { name: 'value', type: 'uint256', indexed: false },
    ],
  },
] as const

const hex = (bytes: number) => fc.uint8Array({ minLength: bytes, maxLength: bytes }).map((b) => `0x${Buffer.from(b).toString('hex')}` as Hex)
function argumentOf(param: AbiParameter): fc.Arbitrary<unknown> {
  const bits = (t: string) => Number(t.replace(/\D/g, '') || 256)
  if (param.type === 'address') return hex(20)
  if (param.type === 'bytes32') return hex(32)
  if (param.type === 'bool') return fc.boolean()
  if (param.type === 'string') return fc.string()
  if (param.type === 'uint256[]') return fc.array(fc.bigInt({ min: 0n, max: 2n ** 256n - 1n }), { maxLength: 3 })
  const n = bits(param.type)
  const big = param.type.startsWith('int')
    ? fc.bigInt({ min: -(2n ** BigInt(n - 1)), max: 2n ** BigInt(n - 1) - 1n })
    : fc.bigInt({ min: 0n, max: 2n ** BigInt(n) - 1n })
  // viem decodes integers of 48 bits or fewer as numbers.
  return n <= 48 ? big.map(Number) : big
}

/** A log of one of ABI's events with random arguments, as a node would hand it. */
const logArb = fc.constantFrom(...(ABI as readonly AbiEvent[]).filter((e) => !e.anonymous)).chain((event) =>
  fc.tuple(...event.inputs.map(argumentOf)).map((values) => {
    const indexed = event.inputs.map((p, i) => [p, values[i]] as const).filter(([p]) => p.indexed)
    const unindexed = event.inputs.map((p, i) => [p, values[i]] as const).filter(([p]) => !p.indexed)
    const topics = encodeEventTopics({ abi: [event], args: indexed.map(([, v]) => v) as never } as never) as Hex[]
    const data =
      unindexed.length === 0
        ? '0x'
        : encodeAbiParameters(
            unindexed.map(([p]) => p),
            unindexed.map(([, v]) => v),
          )
    return { topics, data: data as Hex }
  }),
)

/** viem's answer or its error's class and message, for comparing the two decoders on anything. */
function outcome(decode: typeof decodeEventLog, parameters: Parameters<typeof decodeEventLog>[0]) {
  try {
    return { ok: decode(parameters) }
  } catch (error) {
    return { error: `${(error as Error).constructor.name}: ${(error as Error).message}` }
  }
}

describe('decodeEventLogCached', () => {
  it("answers and refuses exactly as viem's decodeEventLog, on well-formed and damaged logs (property)", () => {
    const damage = fc.constantFrom(
      'none',
      'truncate data',
      'extend data',
      'drop a topic',
      'extra topic',
      'other selector',
      'no topics',
      'not strict',
      'by name',
    )
    fc.assert(
      fc.property(logArb, damage, ({ topics, data }, how) => {
        let t = topics
        let d = data
        let extra: Record<string, unknown> = {}
        if (how === 'truncate data') d = d.slice(0, Math.max(2, d.length - 2)) as Hex
        if (how === 'extend data') d = `${d}${'00'.repeat(32)}` as Hex
        if (how === 'drop a topic') t = t.slice(0, -1)
        if (how === 'extra topic') t = [...t, `0x${'ab'.repeat(32)}`]
        if (how === 'other selector') t = [toEventSelector('event Other(uint256)'), ...t.slice(1)]
        if (how === 'no topics') t = []
        if (how === 'not strict') extra = { strict: false }
        if (how === 'by name') extra = { eventName: 'Anon' }
        const parameters = { abi: ABI, data: d, topics: t as [Hex, ...Hex[]], ...extra } as Parameters<typeof decodeEventLog>[0]
        expect(outcome(decodeEventLogCached, parameters)).toEqual(outcome(decodeEventLog, parameters))
      }),
      { numRuns: 600 },
    )
  })

  it('decodes a pool Initialize to its named arguments', () => {
    const id = `0x${'11'.repeat(32)}` as Hex
    const topics = encodeEventTopics({
      abi: POOL_MANAGER_EVENTS,
      eventName: 'Initialize',
      args: { id, currency0: `0x${'22'.repeat(20)}`, currency1: `0x${'33'.repeat(20)}` },
    }) as [Hex, ...Hex[]]
    const data = encodeAbiParameters(parseAbiParameters('uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick'), [
      3000,
      60,
      `0x${'44'.repeat(20)}`,
      2n ** 96n,
      -100,
    ])
    const { eventName, args } = decodeEventLogCached({ abi: POOL_MANAGER_EVENTS, data, topics, strict: true })
    expect(eventName).toBe('Initialize')
    expect(args).toEqual({
      id,
      currency0: `0x${'22'.repeat(20)}`,
      currency1: `0x${'33'.repeat(20)}`,
      fee: 3000,
      tickSpacing: 60,
      hooks: `0x${'44'.repeat(20)}`,
      sqrtPriceX96: 2n ** 96n,
      tick: -100,
    })
  })
})
