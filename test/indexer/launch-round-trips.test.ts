import { type Address, createPublicClient, custom, type Log, parseAbi, type PublicClient, toFunctionSelector } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createLaunchDetector } from '../../daemon/indexer/detect-launch.ts'
import { readTokenText } from '../../daemon/indexer/launch-binding-facts.ts'
import type { LaunchReadsAhead } from '../../daemon/indexer/launch-reads-ahead.ts'
import { memoReads } from '../../daemon/indexer/memo-reads.ts'
import { createPairedPrices } from '../../daemon/indexer/paired-prices.ts'
import { readEthUsdBanded } from '../../src/chain/read-eth-usd.ts'
import { readPoolPoint } from '../../src/launchpads/clanker-v5/read-clanker-v5-fees.ts'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import { createLaunchpadAdapters, devnetAdapterOptions } from '../../src/launchpads/create-adapters.ts'
import { type FlowHarness, startFlowHarness } from '../executor/flow-harness.ts'

const fresh = (): Address => privateKeyToAccount(generatePrivateKey()).address

/**
 * A client whose answers are held until the test releases them, round by round: every request is sent to the node at
 * once, but its answer is handed back only when `rounds` releases every request held so far. The requests released
 * together are one round trip; one asked only after an answer came back is in a later round. So the count of rounds is
 * the count of serial round trips, whatever the machine's speed: the code under test (decoding and completing a
 * launch) waits on nothing but this client, and between releases everything it does runs in microtasks, which the
 * flush (setImmediate) drains. Nothing here depends on timing.
 */
function gatedClient(inner: PublicClient) {
  const held: { method: string; answer: Promise<unknown>; release: () => void }[] = []
  const client = createPublicClient({
    transport: custom({
      request({ method, params }) {
        const answer = inner.request({ method, params } as never) as Promise<unknown>
        answer.catch(() => undefined)
        const gate = withResolvers<void>()
        held.push({ method, answer, release: () => gate.resolve() })
        return gate.promise.then(() => answer)
      },
    }),
  }) as PublicClient
  const flush = async () => {
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  }
  /** Runs `work`, releasing the held answers a round at a time; the methods asked in each round until it finished. */
  async function rounds<T>(work: () => Promise<T>): Promise<{ result: T; rounds: string[][] }> {
    let finished: { result: T } | { error: unknown } | undefined
    work().then(
      (result) => (finished = { result }),
      (error: unknown) => (finished = { error }),
    )
    const asked: string[][] = []
    for (;;) {
      await flush()
      if (finished) break
      const round = held.splice(0)
      if (round.length === 0) throw new Error('the work waits on something else than the client')
      await Promise.allSettled(round.map((r) => r.answer))
      asked.push(round.map((r) => r.method).sort())
      for (const r of round) r.release()
    }
    // Reads still running in the background (the reads ahead of a launch whose answers were not needed): let them end.
    for (let spins = 0; spins < 20 && held.length > 0; spins++) {
      const rest = held.splice(0)
      await Promise.allSettled(rest.map((r) => r.answer))
      for (const r of rest) r.release()
      await flush()
    }
    if (!finished) throw new Error('not finished')
    if ('error' in finished) throw finished.error
    return { result: finished.result, rounds: asked }
  }
  return { client, rounds }
}

describe('a launch log to its launch record: serial round trips, with and without the reads ahead of the receipt (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
    h.startMining(100)
  })
  afterAll(async () => {
    await h?.stopMining()
    await h?.stop()
  })

  /** The launch's log and its block's logs as the sync delivers them (the launch emitters' and the PoolManager's). */
  async function launchLogs(launchpad: Launchpad, txHash: `0x${string}`, blockNumber: bigint) {
    const adapters = Object.values(createLaunchpadAdapters(devnetAdapterOptions(h.chain.addresses, h.launchpads)))
    const watched = new Set([...adapters.map((a) => a.launchEvent.address.toLowerCase()), ...adapters.map((a) => a.poolManager.toLowerCase())])
    const block = await h.client.getBlock({ blockNumber })
    const blockLogs: Log[] = (await h.client.getLogs({ blockHash: block.hash })).filter((l) => watched.has(l.address.toLowerCase()))
    const adapter = adapters.find((a) => a.id === launchpad)!
    const launchLog = blockLogs.find(
      (l) => l.transactionHash === txHash && l.address.toLowerCase() === adapter.launchEvent.address.toLowerCase() && (adapter.isLaunchLog?.(l) ?? true),
    )!
    return { adapters, block, blockLogs, launchLog }
  }

  /** Decodes the launch log and completes its record through a gated client; the rounds it took. */
  async function detect(
    launchpad: Launchpad,
    launched: { txHash: `0x${string}`; blockNumber: bigint },
    creators: readonly Address[] | undefined,
    readAheadFirst = false,
  ) {
    const { adapters, block, blockLogs, launchLog } = await launchLogs(launchpad, launched.txHash, launched.blockNumber)
    const gated = gatedClient(h.client)
    const detector = createLaunchDetector({ store: h.store, chain: h.chain, client: gated.client, adapters, stage: () => undefined })
    const ahead: LaunchReadsAhead | undefined = creators && { client: memoReads(gated.client), blockLogs, creators }
    return gated.rounds(async () => {
      // As the indexer does when the block arrives, before its other work (launch-intake.ts `prefetch`).
      if (readAheadFirst && ahead) detector.readAhead(launchLog, block.timestamp, ahead)
      const read = await detector.decode(launchLog, block.timestamp, ahead)
      // As the intake does for a project whose binding names the token's symbol or name, when the event names none
      // (launch-intake.ts, needsTokenText): read at the launch block.
      const decoded = read?.kind === 'launch' && read.candidate.symbol === null ? await readTokenText(ahead?.client ?? gated.client, read) : read
      if (decoded?.kind !== 'launch') throw new Error(`not a launch: ${JSON.stringify(decoded?.kind)}`)
      const project = { slug: `rt-${launchpad}` } as ProjectRecord
      const detected = await detector.complete(project, decoded.candidate, decoded.candidate.blockNumber, () => Promise.resolve(), ahead?.client)
      return { decoded, record: detected.record, state: detected.state }
    })
  }

  it.each(['clanker', 'clanker_v5', 'doppler', 'zora'] as const)(
    '%s: the reads ahead take the sender code and the completion off the serial path; the decoding and the record are the same',
    async (launchpad) => {
      const creator = fresh()
      const launched = await h.launch(`rt-${launchpad.replace('_', '')}`, launchpad, creator)
      const before = await detect(launchpad, launched, undefined)
      const after = await detect(launchpad, launched, [creator])
      // Same decision (the attribution from the real receipt and the sender's code), same record, same pool state.
      expect(after.result).toEqual(before.result)
      expect(after.result.decoded.candidate.deployer.toLowerCase()).toBe(creator.toLowerCase())
      // Before: the receipt, then the sender's code, then the completion (one round or more: a launchpad's fee
      // schedule may read in steps).
      expect(before.rounds[0]).toEqual(['eth_getTransactionReceipt'])
      expect(before.rounds[1]).toContain('eth_getCode')
      // After: the receipt's round carries the creator's code and the completion's first reads; the code is never
      // asked again, and at least two rounds are gone.
      expect(after.rounds[0]).toEqual(expect.arrayContaining(['eth_getTransactionReceipt', 'eth_getCode', 'eth_call']))
      expect(after.rounds.slice(1).flat()).not.toContain('eth_getCode')
      expect(after.rounds.length).toBeLessThanOrEqual(before.rounds.length - 2)
      // Every launchpad's record in the receipt's round (Clanker v5: its fee's quotes with the state read, the probe
      // from the launch logs; Doppler: the completion's reads from its candidate of the logs, not after the asset data).
      expect(after.rounds).toHaveLength(1)
      console.info(`${launchpad}: ${before.rounds.length} serial rounds before, ${after.rounds.length} with the reads ahead`, JSON.stringify(after.rounds))
    },
  )

  /**
   * Clanker v5's fee is measured by quotes of a probe whose amount follows from the pool's point at the launch block
   * (read-clanker-v5-fees.ts): the state read, then the quotes, two rounds (three when the price sits on a tick and its
   * liquidityNet is read). The launch transaction's PoolManager logs tell that point (pool-point-from-logs.ts), so the
   * quotes go with the state read; they are used only when the state read gives the same probe amount.
   */
  it('clanker_v5: the fee measured in one round with the pool point from the launch logs; the same schedule as without, and a wrong hint costs only the round', async () => {
    const launched = await h.launch('rt-v5-point', 'clanker_v5', fresh())
    const { adapters, block, launchLog } = await launchLogs('clanker_v5', launched.txHash, launched.blockNumber)
    const adapter = adapters.find((a) => a.id === 'clanker_v5')!
    const detector = createLaunchDetector({ store: h.store, chain: h.chain, client: h.client, adapters, stage: () => undefined })
    const decoded = await detector.decode(launchLog, block.timestamp)
    if (decoded?.kind !== 'launch') throw new Error('not a launch')
    const candidate = decoded.candidate
    const hint = candidate.poolPointFromLogs
    expect(hint).toBeDefined()
    // The hint is the point the state read finds (nothing else touched the pool in the launch block).
    const zeroForOne = !candidate.tokenIsCurrency0
    const point = await readPoolPoint(h.client, h.chain.addresses.poolManager, candidate.poolId, candidate.blockNumber, zeroForOne)
    expect({ sqrtPriceX96: BigInt(hint!.sqrtPriceX96), liquidity: BigInt(hint!.liquidity) }).toEqual(point)

    const measure = async (launch: typeof candidate) => {
      const gated = gatedClient(h.client)
      return gated.rounds(() => adapter.loadFeeSchedule(gated.client, launch))
    }
    const { poolPointFromLogs: _, ...unhinted } = candidate
    const without = await measure(unhinted)
    const withHint = await measure(candidate)
    const wrong = await measure({ ...candidate, poolPointFromLogs: { ...hint!, liquidity: (BigInt(hint!.liquidity) * 3n).toString(), tick: hint!.tick + 1 } })
    console.info(
      'clanker_v5 fee rounds: without hint',
      JSON.stringify(without.rounds),
      'with',
      JSON.stringify(withHint.rounds),
      'wrong',
      JSON.stringify(wrong.rounds),
    )
    expect(without.rounds.length).toBeGreaterThanOrEqual(2)
    expect(withHint.rounds).toHaveLength(1)
    expect(withHint.rounds[0]!.every((m) => m === 'eth_call')).toBe(true)
    expect(wrong.rounds).toHaveLength(without.rounds.length)
    expect(withHint.result).toEqual(without.result)
    expect(wrong.result).toEqual(without.result)
  })

  it('the reads started when the block arrives are the ones the decoding waits on: the receipt is asked once', async () => {
    const creator = fresh()
    const launched = await h.launch('rt-early', 'zora', creator)
    const once = await detect('zora', launched, [creator])
    const early = await detect('zora', launched, [creator], true)
    expect(early.result).toEqual(once.result)
    expect(early.rounds.length).toBe(once.rounds.length)
    expect(early.rounds.flat().filter((m) => m === 'eth_getTransactionReceipt')).toHaveLength(1)
    expect(early.rounds.flat().filter((m) => m === 'eth_getCode')).toHaveLength(1)
  })

  it.each(['clanker', 'clanker_v5', 'doppler', 'zora'] as const)(
    '%s: reads ahead that ended before the decoding asks (a busy indexer) leave it no round of its own: a refusal is an answer too',
    async (launchpad) => {
      const creator = fresh()
      const launched = await h.launch(`rt-done-${launchpad.replace('_', '')}`, launchpad, creator)
      const { adapters, block, blockLogs, launchLog } = await launchLogs(launchpad, launched.txHash, launched.blockNumber)
      const gated = gatedClient(h.client)
      const detector = createLaunchDetector({ store: h.store, chain: h.chain, client: gated.client, adapters, stage: () => undefined })
      const ahead: LaunchReadsAhead = { client: memoReads(gated.client), blockLogs, creators: [creator] }
      // The reads ahead, every round of them answered (the rounds helper drains what runs in the background).
      await gated.rounds(async () => detector.readAhead(launchLog, block.timestamp, ahead))
      const after = await gated.rounds(async () => {
        const decoded = await detector.decode(launchLog, block.timestamp, ahead)
        if (decoded?.kind !== 'launch') throw new Error(`not a launch: ${JSON.stringify(decoded?.kind)}`)
        return detector.complete(
          { slug: `rt-${launchpad}` } as ProjectRecord,
          decoded.candidate,
          decoded.candidate.blockNumber,
          () => Promise.resolve(),
          ahead.client,
        )
      })
      console.info(`${launchpad}: ${after.rounds.length} rounds after reads ahead that ended`, JSON.stringify(after.rounds))
      // Nothing the reads ahead asked is asked again, a getter's revert included: before, the refusals were asked once
      // more, a round of their own (Clanker v4: the four getters of the hooks and modules it does not have; Doppler:
      // the devnet asset's balance-limit getters, which it does not have).
      expect(after.rounds).toEqual([])
    },
  )

  it('a launch sent by someone else than the waiting creator: the real sender’s code is still read, and the decoding is the same', async () => {
    const creator = fresh()
    const sender = fresh()
    const launched = await h.launch('rt-forged', 'zora', creator, { sender })
    const before = await detect('zora', launched, undefined)
    const after = await detect('zora', launched, [creator])
    expect(after.result).toEqual(before.result)
    // The attribution names the real caller, not the creator the reads ahead guessed.
    expect(after.result.decoded.candidate.deployer.toLowerCase()).toBe(sender.toLowerCase())
    // The sender's code was asked after the receipt, as before (a guessed creator's code is never taken for it).
    expect(after.rounds.slice(1).flat()).toContain('eth_getCode')
  })

  /**
   * The block's paired price, which the launch tick ahead waits for (docs/execution.md §5, runs 8-11: 150-500 ms after
   * the logs on Clanker v5 and Doppler). It was six serial round trips on a pool whose oracle is younger than the TWAP
   * window (the devnet's): slot0, observe (reverts 'OLD'), the next observation, the first, the block, observe again.
   */
  it('the banded ETH/USD read: one round where the oracle covers the window, two on a younger pool, the same TWAP as the pool’s own observe', async () => {
    const pool = h.chain.addresses.ethUsdPool
    const V3 = parseAbi([
      'function slot0() view returns (uint160, int24, uint16 observationIndex, uint16 observationCardinality, uint16, uint8, bool)',
      'function observations(uint256) view returns (uint32 blockTimestamp, int56, uint160, bool initialized)',
    ])
    const block = await h.client.getBlock({ blockNumber: await h.client.getBlockNumber({ cacheTime: 0 }) })
    const at = { address: pool, blockNumber: block.number } as const
    const slot0 = await h.client.readContract({ ...at, abi: V3, functionName: 'slot0' })
    const next = await h.client.readContract({ ...at, abi: V3, functionName: 'observations', args: [BigInt((slot0[2] + 1) % slot0[3])] })
    const oldest = next[3] ? next : await h.client.readContract({ ...at, abi: V3, functionName: 'observations', args: [0n] })
    // The history the pool has at this block: a window of exactly that is answered by the pool's own observe.
    const available = Number(block.timestamp) - oldest[0]
    expect(available).toBeGreaterThan(1)
    const withWindow = (twapSeconds: number) => ({ ...h.chain, ethUsdBand: { twapSeconds, bandBps: 200 } })
    const options = { blockNumber: block.number, blockTimestamp: block.timestamp, wethIsToken0: true }

    const covered = gatedClient(h.client)
    const exact = await covered.rounds(() => readEthUsdBanded(covered.client, withWindow(available), options))
    expect(exact.rounds).toEqual([['eth_call', 'eth_call']])
    expect(exact.result.status).not.toBe('no_twap')

    // A window longer than the history: the pool reverts 'OLD', and the TWAP over what it has is computed from its
    // observations in one more round: the same outcome as the pool's observe over exactly that history.
    const young = gatedClient(h.client)
    const longer = await young.rounds(() => readEthUsdBanded(young.client, withWindow(available + 100_000), options))
    expect(longer.rounds).toHaveLength(2)
    expect(longer.rounds[1]!.every((method) => method === 'eth_call')).toBe(true)
    expect(longer.result).toEqual(exact.result)
    // Without the block's time (a read at latest, a caller that does not know it), the block is asked in that round.
    const untimed = gatedClient(h.client)
    const { blockTimestamp: _, ...withoutTime } = options
    const asked = await untimed.rounds(() => readEthUsdBanded(untimed.client, withWindow(available + 100_000), withoutTime))
    expect(asked.rounds).toHaveLength(2)
    expect(asked.rounds[1]).toContain('eth_getBlockByNumber')
    expect(asked.result).toEqual(exact.result)

    // Block after block: the oldest observation an earlier read reported, checked in the first round (the window of
    // exactly that history answers, one second more reverts): one round, the same outcome. A wrong one takes the second.
    const reported: number[] = []
    const hinted = async (oldestObservationAt: number) => {
      const gated = gatedClient(h.client)
      const options2 = { ...options, oldestObservationAt, onOldestObservation: (t: number) => reported.push(t) }
      return gated.rounds(() => readEthUsdBanded(gated.client, withWindow(available + 100_000), options2))
    }
    const right = await hinted(oldest[0])
    expect(right.rounds).toHaveLength(1)
    expect(right.result).toEqual(exact.result)
    for (const wrong of [oldest[0] - 5, oldest[0] + 5]) {
      const missed = await hinted(wrong)
      expect(missed.rounds).toHaveLength(2)
      expect(missed.result).toEqual(exact.result)
    }
    expect(reported).toEqual([oldest[0], oldest[0], oldest[0]])
  })

  it('the paired prices of one block read ETH/USD once for every pair priced through ETH', async () => {
    const slot0 = toFunctionSelector('slot0()')
    let slot0Reads = 0
    const counting = createPublicClient({
      transport: custom({
        request({ method, params }) {
          const call = (params as [{ to?: string; data?: string }] | undefined)?.[0]
          if (method === 'eth_call' && call?.to?.toLowerCase() === h.chain.addresses.ethUsdPool.toLowerCase() && call.data?.startsWith(slot0)) slot0Reads++
          return h.client.request({ method, params } as never)
        },
      }),
    }) as PublicClient
    const prices = await createPairedPrices(h.chain, counting)
    const block = await h.client.getBlock({ blockNumber: await h.client.getBlockNumber({ cacheTime: 0 }) })
    const [weth, eth] = await Promise.all([
      prices.usd({ kind: 'weth', address: h.chain.addresses.weth }, block.number, block.timestamp),
      prices.usd({ kind: 'eth', address: '0x0000000000000000000000000000000000000000' }, block.number, block.timestamp),
    ])
    expect(weth).toEqual(eth)
    expect(slot0Reads).toBe(1)
    // Another block is read again.
    await prices.usd({ kind: 'weth', address: h.chain.addresses.weth }, block.number - 1n)
    expect(slot0Reads).toBe(2)
  })
})
