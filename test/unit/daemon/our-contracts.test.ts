import type { PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { missingContracts, watchOurContracts } from '../../../daemon/chain/contracts-watch.ts'
import { ourContracts } from '../../../daemon/chain/our-contracts.ts'
import { batchBuyerAddress, serviceBatchBuyerArgs } from '../../../daemon/executor/batch-buyer-address.ts'
import { buyRouterAddress } from '../../../daemon/executor/ensure-buy-router.ts'
import { resolveDevBuySetups } from '../../../src/launch-methods/dev-buy/worker/resolve-dev-buy-setups.ts'
import { resolveOtcSettlements } from '../../../src/launch-methods/pooled-otc/worker/resolve-otc-settlements.ts'
import { resolveVesting } from '../../../src/launch-methods/vesting/worker/resolve-vesting.ts'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'

const addresses = {
  entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  weth: '0x4200000000000000000000000000000000000006',
  ethUsdPool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
  poolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
} as const
const chains = {
  base: { key: 'base', chainId: 8453, addresses },
  second_chain: { key: 'second_chain', chainId: 7777, addresses },
} as unknown as Record<ChainKey, ChainConfig>
const service = { operator: '0x0000000000000000000000000000000000000b0b', feeRecipient: '0x0000000000000000000000000000000000000fee' } as const
const silent = { info: () => undefined, warn: () => undefined } as never

/** A chain whose getCode answers from a set (and can be told to fail), counting the reads. */
function fakeChain(deployed: Set<string>) {
  const chain = { reads: 0, down: false }
  const client = {
    getCode: async ({ address }: { address: string }) => {
      chain.reads++
      if (chain.down) throw new Error('no answer')
      return deployed.has(address) ? '0x6080' : undefined
    },
  } as unknown as PublicClient
  return { chain, client }
}

describe('ourContracts', () => {
  it('names, in deployment order, exactly the addresses the daemon then resolves: router, vesting, OTC settlement, and on Base the dev-buy coordinator', async () => {
    const onBase = ourContracts(chains.base, service)
    expect(onBase.map((c) => c.name)).toEqual(['PrebuyBuyRouter', 'PrebuyBatchBuyer', 'PrebuyVesting', 'PrebuyOtcSettlement', 'PrebuyDevBuyCoordinator'])
    expect(ourContracts(chains.second_chain, service).map((c) => c.name)).toEqual([
      'PrebuyBuyRouter',
      'PrebuyBatchBuyer',
      'PrebuyVesting',
      'PrebuyOtcSettlement',
    ])
    const byName = Object.fromEntries(onBase.map((c) => [c.name, c.address]))
    expect(byName.PrebuyBuyRouter).toBe(buyRouterAddress(addresses.poolManager))
    // The batch buyer over that router, the bundler EOA its admin and operator: the address the executor approves.
    const router = buyRouterAddress(addresses.poolManager)
    expect(byName.PrebuyBatchBuyer).toBe(batchBuyerAddress(serviceBatchBuyerArgs(router, service.operator)))
    expect(byName.PrebuyBatchBuyer).toBe(batchBuyerAddress({ router, admin: service.operator, operators: [service.operator, service.operator] }))
    expect(byName.PrebuyBatchBuyer).not.toBe(batchBuyerAddress({ router, admin: service.operator, operators: [service.operator, service.feeRecipient] }))
    // What `prebuy contracts deploy` puts on chain is what the resolvers look for (the same salts and arguments).
    const { client } = fakeChain(new Set(onBase.map((c) => c.address)))
    const clients = { base: client, second_chain: client }
    const vesting = await resolveVesting({ chains, clients, logger: silent })
    expect(vesting.base).toBe(byName.PrebuyVesting)
    const otc = await resolveOtcSettlements({ chains, clients, ...service, vesting, logger: silent })
    expect(otc.settlements.base).toBe(byName.PrebuyOtcSettlement)
    expect(otc.vesting.base).toBe(byName.PrebuyVesting)
    const devBuy = await resolveDevBuySetups({ chains, clients, ...service, vesting: otc.vesting, logger: silent })
    expect(devBuy.coordinators.base).toBe(byName.PrebuyDevBuyCoordinator)
  })
})

describe('watchOurContracts', () => {
  it('unknown until read; missing until code appears (a failed read keeps what was known); then complete, and no more reads', async () => {
    const deployed = new Set<string>()
    const { chain, client } = fakeChain(deployed)
    const contracts = ourContracts(chains.second_chain, service)
    const watch = watchOurContracts({ contracts: { second_chain: contracts }, clients: { second_chain: client }, logger: silent, intervalMs: 3_600_000 })
    try {
      let completed = false
      void watch.whenComplete.then(() => (completed = true))
      chain.down = true
      expect((await watch.refresh()).second_chain!.map((c) => c.deployed)).toEqual([null, null, null, null])
      chain.down = false
      const missing = await watch.refresh()
      expect(missing.second_chain!.map((c) => c.deployed)).toEqual([false, false, false, false])
      expect(missingContracts(missing).second_chain!.map((c) => c.name)).toEqual([
        'PrebuyBuyRouter',
        'PrebuyBatchBuyer',
        'PrebuyVesting',
        'PrebuyOtcSettlement',
      ])
      chain.down = true
      expect((await watch.refresh()).second_chain!.map((c) => c.deployed)).toEqual([false, false, false, false])
      chain.down = false
      deployed.add(contracts[0]!.address)
      expect((await watch.refresh()).second_chain!.map((c) => c.deployed)).toEqual([true, false, false, false])
      expect(watch.complete()).toBe(false)
      for (const c of contracts) deployed.add(c.address)
      const readsBefore = chain.reads
      await watch.refresh()
      // Only the three still missing were read.
      expect(chain.reads - readsBefore).toBe(3)
      expect(watch.complete()).toBe(true)
      await watch.whenComplete
      expect(completed).toBe(true)
      expect(missingContracts(await watch.refresh())).toEqual({})
      expect(chain.reads - readsBefore).toBe(3)
    } finally {
      watch.stop()
    }
  })

  it('is complete at once with nothing to watch (the devnet deploys its own)', async () => {
    const watch = watchOurContracts({ contracts: {}, clients: {}, logger: silent })
    try {
      expect(watch.complete()).toBe(true)
      await watch.whenComplete
      expect(await watch.refresh()).toEqual({})
    } finally {
      watch.stop()
    }
  })
})
