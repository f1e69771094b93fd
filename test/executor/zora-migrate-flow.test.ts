import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type Address, encodeFunctionData, getAddress, type Hex, parseAbi, parseEventLogs } from 'viem'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { loadLaunchpadArtifact } from '../../devnet/launchpads/devnet-artifacts.ts'
import { deployZoraUpgradeHook, migrateZoraLiquidity } from '../../devnet/launchpads/migrate-zora-liquidity.ts'
import { confirmDevnetTx, impersonate } from '../../devnet/launchpads/send-devnet-tx.ts'
import { createTickQuotes } from '../../daemon/executor/tick-quotes.ts'
import { silentLogger } from '../../src/common/logger.ts'
import type { LaunchRecord, PriceTick } from '../../src/journal/journal-records.ts'
import { createBuyQuoter } from '../../src/launchpads/quote-buy.ts'
import { POOL_MANAGER_EVENTS } from '../../src/launchpads/v4-events.ts'
import { startFlowHarness, type FlowHarness } from './flow-harness.ts'

const USDC = 1_000_000n
const STATE_VIEW = parseAbi([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 poolId) view returns (uint128)',
])

/**
 * A Zora coin moving its liquidity to a new hook (ourzora/zora-protocol BaseCoin.migrateLiquidity, LiquidityMigrated
 * from the coin; devnet imitation DevnetZoraCoin / DevnetZoraHook): the indexer moves the launch to the new pool key,
 * prices it there (the new key's static 1%), and the executor buys there; a forged event is ignored.
 */
describe('a Zora coin after migrateLiquidity (real devnet, indexer, executor)', () => {
  let h: FlowHarness
  let newHook: Address
  beforeAll(async () => {
    h = await startFlowHarness()
    newHook = await deployZoraUpgradeHook(h.chain, h.launchpads)
  })
  afterAll(async () => {
    await h?.stop()
  })

  const tickAfter = (slug: string, block: bigint) =>
    h.waitFor(`a tick of ${slug} from block ${block}`, async () => (await h.journal.ticksOf(slug)).find((t) => BigInt(t.blockNumber) >= block))

  it('the launch follows the coin to its new pool; an order raised after the move fills there; quote and formula agree on it', async () => {
    const { slug, creator } = await h.newProject('zmove', 'zora')
    const buyer = await h.newBuyer('zmove-buyer', '100')
    // A limit no launch meets: nothing is bought before the move.
    await h.order(buyer, slug, '10', '1')
    const launched = await h.launch(slug, 'zora', creator)
    await h.indexer.caughtUp('base', launched.blockNumber)
    // Past the 10 s launch fee (2 s blocks); a third party's buy moves the price into the launch range, so the pool
    // has active liquidity (and some ETH) to move.
    await h.mine(6)
    await h.thirdPartyBuy(launched.token, launched.poolKey, '5', { wait: true })
    const liquidityBefore = await h.client.readContract({
      address: h.chain.addresses.stateView,
      abi: STATE_VIEW,
      functionName: 'getLiquidity',
      args: [launched.poolId],
    })
    expect(liquidityBefore).toBeGreaterThan(0n)

    const migrated = await migrateZoraLiquidity({ chain: h.chain, coin: launched.token, owner: creator, newHook })
    // As the real hook: same currencies, the new hook, a static 1% and tick spacing 200, at the old pool's price.
    expect(migrated.poolKey).toEqual({ ...launched.poolKey, fee: 10_000, tickSpacing: 200, hooks: newHook })
    const [oldSlot0, newSlot0, oldLiquidity, newLiquidity] = await Promise.all([
      h.client.readContract({ address: h.chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [launched.poolId] }),
      h.client.readContract({ address: h.chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getSlot0', args: [migrated.poolId] }),
      h.client.readContract({ address: h.chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getLiquidity', args: [launched.poolId] }),
      h.client.readContract({ address: h.chain.addresses.stateView, abi: STATE_VIEW, functionName: 'getLiquidity', args: [migrated.poolId] }),
    ])
    expect(newSlot0[0]).toBe(oldSlot0[0])
    expect(oldLiquidity).toBe(0n)
    expect(newLiquidity).toBeGreaterThan(0n)

    await h.indexer.caughtUp('base', migrated.blockNumber)
    const record = (await h.journal.getLaunchBySlug(slug)) as LaunchRecord
    expect(record.poolId).toBe(migrated.poolId)
    expect(record.poolKey).toEqual(migrated.poolKey)
    expect(record.feeSources.hook).toBe(newHook)
    // v4 applies no hook override on a static-fee key: the new pool charges 1%, priced as such from now on.
    expect(record.feeSchedule).toMatchObject({ kind: 'linear', startFee: 10_000, endFee: 10_000, durationSeconds: 0 })
    expect(record.migrations).toEqual([
      {
        poolKey: launched.poolKey,
        poolId: launched.poolId,
        feeSources: { hook: launched.poolKey.hooks },
        feeSchedule: expect.objectContaining({ kind: 'linear', startFee: 990_000, endFee: 10_000 }),
        blockNumber: migrated.blockNumber.toString(),
        txHash: migrated.txHash,
      },
    ])
    const tick = (await tickAfter(slug, migrated.blockNumber)) as PriceTick
    expect(tick.sqrtPriceX96).toBe(newSlot0[0].toString())
    expect(tick.liquidity).toBe(newLiquidity.toString())
    expect(tick.lpFeePips).toBe(10_000)

    // The formula's cap on the moved pool against the V4Quoter's quote of the real swap through the new hook.
    const quotes = createTickQuotes({
      quoters: { base: createBuyQuoter({ client: h.client, v4Quoter: h.chain.addresses.v4Quoter, multicall3: h.chain.addresses.multicall3 }) },
      log: silentLogger,
    })
    expect(await quotes.compare(tick, record)).toMatchObject({ kind: 'agree' })

    // The old pool's hook forgot it: a swap there reverts (the real hook: NoCoinForHook).
    await expect(h.thirdPartyBuy(launched.token, launched.poolKey, '1', { wait: true })).rejects.toThrow()

    // Raised above the cap after the move: bought on the new pool.
    const limitUsd = ((Number(BigInt(tick.effectiveCapAtoms!)) * 2) / 1e6).toFixed(0)
    expect((await h.services.orders.patchOrders(buyer.keyId, [{ slug, maxFdvUsdc: limitUsd }]))[0]?.ok).toBe(true)
    h.startMining()
    await h.waitFor('fill', async () => (await h.getOrder(buyer, slug))?.status === 'filled')
    await h.stopMining()
    const e = (await h.getOrder(buyer, slug))!.execution!
    const receipt = await h.client.getTransactionReceipt({ hash: e.txHash as Hex })
    const swaps = parseEventLogs({ abi: POOL_MANAGER_EVENTS, logs: receipt.logs, eventName: 'Swap' })
    expect(swaps.map((s) => s.args.id)).toContain(migrated.poolId)
    expect(swaps.map((s) => s.args.id)).not.toContain(launched.poolId)
    expect(swaps.find((s) => s.args.id === migrated.poolId)!.args.fee).toBe(10_000)
    expect(await h.usdcOf(buyer.wallet)).toBe(90n * USDC)
    expect(await h.tokenBalance(launched.token, buyer.wallet)).toBe(BigInt(e.tokensReceived))
    expect(await h.tokenBalance(launched.token, h.feeRecipient)).toBe(BigInt(e.feeTokens))
  })

  it('only the coin owner may migrate, and a forged LiquidityMigrated from another contract (with a pool it initialised on the coin pair) is ignored', async () => {
    const { slug, creator } = await h.newProject('zforge', 'zora')
    const launched = await h.launch(slug, 'zora', creator)
    await h.indexer.caughtUp('base', launched.blockNumber)

    // Someone else than the owner: the coin refuses (MultiOwnable's OnlyOwner).
    const stranger = getAddress('0x000000000000000000000000000000000000bad1')
    await expect(migrateZoraLiquidity({ chain: h.chain, coin: launched.token, owner: stranger, newHook })).rejects.toThrow()

    // The attacker's contract initialises a hookless pool of the coin's currencies and claims the coin moved there.
    const attacker = getAddress('0x000000000000000000000000000000000000bad2')
    await impersonate(h.chain, attacker)
    const forger = loadLaunchpadArtifact('DevnetForgedLiquidityMigration')
    const deployHash = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_sendTransaction', [{ from: attacker, data: forger.bytecode, gas: '0x2dc6c0' }])
    const forgerAddress = getAddress((await confirmDevnetTx(h.chain, deployHash)).contractAddress!)
    const [sqrtPriceX96] = await h.client.readContract({
      address: h.chain.addresses.stateView,
      abi: STATE_VIEW,
      functionName: 'getSlot0',
      args: [launched.poolId],
    })
    const forgedTo = { ...launched.poolKey, fee: 3_000, tickSpacing: 60, hooks: '0x0000000000000000000000000000000000000000' as Address }
    const data = encodeFunctionData({ abi: forger.abi, functionName: 'forge', args: [h.chain.addresses.poolManager, launched.poolKey, forgedTo, sqrtPriceX96] })
    const forgeHash = await jsonRpc<Hex>(h.chain.rpcUrl, 'eth_sendTransaction', [{ from: attacker, to: forgerAddress, data, gas: '0x2dc6c0' }])
    const forged = await confirmDevnetTx(h.chain, forgeHash)
    // The forged event is there, with the real signature, from the attacker's contract.
    expect(parseEventLogs({ abi: forger.abi, logs: forged.logs, eventName: 'LiquidityMigrated' })).toHaveLength(1)

    await h.indexer.caughtUp('base', forged.blockNumber)
    const record = (await h.journal.getLaunchBySlug(slug)) as LaunchRecord
    expect(record.poolId).toBe(launched.poolId)
    expect(record.poolKey).toEqual(launched.poolKey)
    expect(record.migrations).toBeUndefined()
  })

  it('a reorg that removes the migration block brings the launch back to the pool it left', async () => {
    const { slug, creator } = await h.newProject('zreorg', 'zora')
    const launched = await h.launch(slug, 'zora', creator)
    await h.mine()
    const migrated = await migrateZoraLiquidity({ chain: h.chain, coin: launched.token, owner: creator, newHook })
    await h.mine(2)
    const head = await h.client.getBlockNumber({ cacheTime: 0 })
    await h.indexer.caughtUp('base', head)
    expect((await h.journal.getLaunchBySlug(slug))?.poolId).toBe(migrated.poolId)

    // Replace the migration block and the ones after it with empty blocks: the launch stays, its move is undone.
    await jsonRpc(h.chain.rpcUrl, 'anvil_reorg', [Number(head - migrated.blockNumber) + 1, []])
    await h.mine()
    const back = await h.waitFor('the launch back on its first pool', async () => {
      const record = await h.journal.getLaunchBySlug(slug)
      return record?.poolId === launched.poolId ? record : undefined
    })
    expect(back.poolKey).toEqual(launched.poolKey)
    expect(back.feeSources).toEqual({ hook: launched.poolKey.hooks })
    expect(back.migrations).toBeUndefined()
    // Priced on the first pool again: the next ticks carry its state.
    await h.mine()
    const headAfter = await h.client.getBlockNumber({ cacheTime: 0 })
    await h.indexer.caughtUp('base', headAfter)
    expect(await h.journal.getLaunchBySlug(slug)).toEqual(back)
  })
})
