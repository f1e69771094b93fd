import type { Address, Log, PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { candidateBuckets, createTickQuotes } from '../../../daemon/executor/tick-quotes.ts'
import { readAheadOfReceipt } from '../../../daemon/indexer/launch-reads-ahead.ts'
import { mayBindAhead } from '../../../daemon/indexer/may-bind-ahead.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import type { ProjectRecord } from '../../../src/domain/records.ts'
import type { LaunchCandidate, LaunchpadAdapter } from '../../../src/launchpads/launchpad-adapter.ts'
import type { QuotedLaunch } from '../../../src/launchpads/quote-buy.ts'
import { launch, tickAt } from '../../executor/parts/executor-fixture.ts'
import { candidates, countingQuoter } from './quote-ahead-fixture.ts'

const launchTick = (changes = {}) => ({ ...tickAt(10, 1_000_000), reason: 'launch' as const, ...changes })
const hintOf = (slug: string, tick: ReturnType<typeof launchTick>, quoted: QuotedLaunch = launch) => ({
  slug,
  launch: { ...quoted, chain: launch.chain },
  blockNumber: tick.blockNumber,
  nextBlockTimestamp: tick.nextBlockTimestamp,
  pairedUsdAtoms: tick.pairedUsdAtoms,
})

describe('the launch tick quotes asked ahead of the launch record (tick-quotes.ts quoteLaunchAhead)', () => {
  it('the launch tick asks nothing of its own when its record and tick state the hinted inputs (2 calls, all ahead)', async () => {
    const { asked, quoter } = countingQuoter()
    const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    const tick = launchTick()
    // The buckets of 10 and 40 USDC: 2^24 and 2^26 atoms.
    quotes.quoteLaunchAhead(hintOf(launch.slug, tick), [1n << 24n, 1n << 26n])
    expect(asked).toHaveLength(2)
    // The record is another object with the same pool, token and route: the calls are the same.
    expect((await quotes.quotedCaps(tick, { ...launch }, candidateBuckets(candidates)))?.swapsAllowed).toBe(true)
    expect(asked).toHaveLength(2)
  })

  it('a hint of another pool, token or paired price is not used: the tick asks its own, with its own inputs', async () => {
    const otherPool = { ...launch, poolKey: { ...launch.poolKey, fee: launch.poolKey.fee + 1 } }
    const otherToken = { ...launch, token: '0x00000000000000000000000000000000000000bb' as Address }
    for (const [quoted, changes] of [
      [otherPool, {}],
      [otherToken, {}],
      [launch, { pairedUsdAtoms: '3100000000' }],
    ] as const) {
      const { asked, quoter } = countingQuoter()
      const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
      const tick = launchTick()
      quotes.quoteLaunchAhead(hintOf(launch.slug, launchTick(changes), quoted), [1n << 24n, 1n << 26n])
      await quotes.quotedCaps(tick, launch, candidateBuckets(candidates))
      expect(asked).toHaveLength(4)
      for (const call of asked.slice(2)) {
        expect(call.launch.poolKey).toEqual(launch.poolKey)
        expect(call.launch.token).toBe(launch.token)
        expect(call.at.pairedUsdAtoms).toBe(BigInt(tick.pairedUsdAtoms))
      }
    }
  })

  it('the same calls hinted for several projects (a launch that may bind any) are asked once', () => {
    const { asked, quoter } = countingQuoter()
    const quotes = createTickQuotes({ quoters: { base: quoter }, log: silentLogger })
    for (const slug of ['a', 'b', 'c']) quotes.quoteLaunchAhead(hintOf(slug, launchTick()), [1n << 24n, 1n << 26n])
    expect(asked).toHaveLength(2)
  })
})

describe('the projects a launch log is read ahead for (may-bind-ahead.ts)', () => {
  const creator = '0x00000000000000000000000000000000000000c1'
  const project = (changes: Partial<ProjectRecord> = {}) =>
    ({ slug: 'p', creatorAddress: creator, launchMethod: 'open_market', expectedSymbol: 'MOON', ...changes }) as ProjectRecord
  const early = (changes: Partial<LaunchCandidate> = {}) =>
    ({
      token: '0x00000000000000000000000000000000000000aa',
      deployer: '0x0000000000000000000000000000000000000000',
      symbol: null,
      ...changes,
    }) as LaunchCandidate

  it('unknown sender and symbol (Doppler, Clanker v5 before the receipt): any waiting project of the launchpad', () => {
    expect(mayBindAhead(project(), early())).toBe(true)
  })
  it('a deployer the event names (Zora, Clanker v4) must be the creator; a symbol it names must be the recorded one', () => {
    expect(mayBindAhead(project(), early({ deployer: creator.toUpperCase().replace('0X', '0x') as Address, symbol: 'MOON' }))).toBe(true)
    expect(mayBindAhead(project(), early({ deployer: '0x00000000000000000000000000000000000000c2' }))).toBe(false)
    expect(mayBindAhead(project(), early({ symbol: 'MO0N' }))).toBe(false)
    expect(mayBindAhead(project({ expectedTokenAddress: '0x00000000000000000000000000000000000000aa' }), early({ symbol: 'MO0N' }))).toBe(true)
  })
  it('a dev-buy project only for its expected token', () => {
    expect(mayBindAhead(project({ launchMethod: 'dev_buy' }), early())).toBe(false)
    expect(mayBindAhead(project({ launchMethod: 'dev_buy', expectedTokenAddress: '0x00000000000000000000000000000000000000AA' }), early())).toBe(true)
  })
})

describe('the creators whose code is read ahead of a receipt (launch-reads-ahead.ts)', () => {
  const creators = ['0x00000000000000000000000000000000000000c1', '0x00000000000000000000000000000000000000c2'] as Address[]
  const entry = { transactionHash: '0x01', blockNumber: 5n, blockHash: '0x02', address: creators[0], topics: [], data: '0x' } as unknown as Log
  const run = async (decoded: LaunchCandidate | undefined, creatorsOf?: (c: LaunchCandidate) => readonly Address[]) => {
    const codes: string[] = []
    const client = {
      getCode: async ({ address }: { address: Address }) => {
        codes.push(address)
        return '0x'
      },
    } as unknown as PublicClient
    const adapter = { decodeLaunch: async () => (decoded ? { kind: 'launch', candidate: decoded } : null) } as unknown as LaunchpadAdapter
    readAheadOfReceipt(adapter, entry, 1n, { client, blockLogs: [], creators, ...(creatorsOf ? { creatorsOf } : {}) }, async () => undefined)
    // The codes go out once: on the candidate, or on the next macrotask without one.
    await new Promise((resolve) => setImmediate(resolve))
    return codes.sort()
  }
  const candidateBy = (deployer: Address) => ({ deployer, symbol: null, token: '0x00000000000000000000000000000000000000aa' }) as unknown as LaunchCandidate

  it('a deployer the event names: only that creator; none named or no candidate: every waiting creator', async () => {
    expect(await run(candidateBy(creators[1]!))).toEqual([creators[1]])
    expect(await run(candidateBy('0x0000000000000000000000000000000000000000'))).toEqual([...creators])
    expect(await run(undefined)).toEqual([...creators])
  })
  it("with the intake's projects: the creators of those the candidate may bind", async () => {
    expect(await run(candidateBy('0x0000000000000000000000000000000000000000'), () => [creators[0]!])).toEqual([creators[0]])
  })
})
