import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Hex, parseEventLogs } from 'viem'
import { setDevnetProtocolFee } from '../../devnet/launchpads/set-protocol-fee.ts'
import { poolIdOf } from '../../src/launchpads/pool-id.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { v4SwapFeePips } from '../../src/pricing/protocol-fee.ts'
import { startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n

/**
 * The v4 protocol fee of a BRIDGE pool (the ETH/ZORA pool a ZORA-paired coin is bought through) is counted in the
 * price, as the launch pool's is: read at launch, followed through ProtocolFeeUpdated, and equal to what the bridge
 * pool charges the buy (its Swap event's fee: LP and protocol fee together, v4-core Pool.sol).
 */
describe('a ZORA-paired launch with a protocol fee on the ETH/ZORA bridge pool (real devnet)', () => {
  let h: FlowHarness
  beforeAll(async () => {
    h = await startFlowHarness()
  })
  afterAll(async () => {
    await h?.stop()
  })

  it('prices the bridge pool protocol fee, the buy pays exactly it, and a later change is followed', async () => {
    const ethPool = h.launchpads.zora.route.ethPool
    // Buying ZORA with ETH (currency0) is zeroForOne: the low 12 bits (500 pips); the other direction is never ours.
    await setDevnetProtocolFee(h.chain, ethPool, (200 << 12) | 500)
    const bridgeFee = v4SwapFeePips(500, 3_000)
    expect(bridgeFee).toBe(3_499)

    const { slug, creator } = await h.newProject('zbridge', 'zora')
    const buyer = await h.newBuyer('zbridge-buyer', '20')
    await h.order(buyer, slug, '5', null)
    h.startMining()
    const launched = await h.launch(slug, 'zora', creator, { paired: 'zora' })
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()

    const record = (await h.journal.getLaunchBySlug(slug))!
    expect(record.paired.bridgeProtocolFeePips).toEqual([500])
    // Every tick: Zora's launch fee compounded with the bridge pool's 0.3% LP fee and its protocol fee.
    const decisions = await h.journal.decisionsOf(slug)
    expect(decisions.length).toBeGreaterThan(0)
    const launchFeeAt = (nextBlockTimestamp: number) => {
      const elapsed = Math.min(Math.max(nextBlockTimestamp - record.launchedAt / 1000, 0), 10)
      return (990_000 - Math.floor((elapsed * 980_000) / 10)) / 1e6
    }
    for (const { tick } of decisions) {
      expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - launchFeeAt(tick.nextBlockTimestamp)) * (1 - bridgeFee / 1e6), 9)
    }
    // What the bridge pool charged the buy is what was priced.
    const e = (await h.getOrder(buyer, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as Hex })
    const swaps = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' })
    expect(swaps.find((s) => s.args.id === poolIdOf(ethPool))!.args.fee).toBe(bridgeFee)
    expect(await h.usdcOf(buyer.wallet)).toBe(15n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))

    // The controller lifts the fee: the launch record follows (ProtocolFeeUpdated of the bridge pool), and so do ticks.
    const lifted = await setDevnetProtocolFee(h.chain, ethPool, 0)
    const liftedBlock = (await h.client.getTransactionReceipt({ hash: lifted })).blockNumber
    await h.indexer.caughtUp('base', liftedBlock)
    expect((await h.journal.getLaunchBySlug(slug))!.paired.bridgeProtocolFeePips).toBeUndefined()
    const tick = (await h.journal.ticksOf(slug)).find((t) => BigInt(t.blockNumber) === liftedBlock)!
    expect(tick.totalFeeFraction).toBeCloseTo(1 - (1 - launchFeeAt(tick.nextBlockTimestamp)) * 0.997, 9)
  })
})
