import { describe, expect, it } from 'vitest'
import { unknownPoolReason } from '../../../src/domain/launches/known-launch-pools.ts'
import { BASE_KNOWN_POOLS, devnetKnownPools } from '../../../src/launchpads/known-launch-pools.ts'
import { DEFAULT_SHARED_DEPLOYERS, sharedDeployerWhy } from '../../../src/launchpads/shared-deployers.ts'

const HOOK = '0xb429d62f8f3bFFb98CdB9569533eA23bF0Ba28CC'
const WETH = '0x4200000000000000000000000000000000000006'
const MEV = '0xebB25BB797D82CB78E1bc70406b13233c0854413'
const OTHER = '0x00000000000000000000000000000000000000ba'

describe("a launch's pool against its launchpad's known configurations", () => {
  it('Base Clanker: a known hook, WETH and a known MEV module (or none) pass; another hook, pair or module is named', () => {
    const pool = { hook: HOOK.toLowerCase(), paired: { kind: 'weth', address: WETH }, feeSources: { hook: HOOK, mevModule: MEV } }
    expect(unknownPoolReason('clanker', pool, BASE_KNOWN_POOLS)).toBeUndefined()
    expect(
      unknownPoolReason('clanker', { ...pool, feeSources: { hook: HOOK, mevModule: '0x0000000000000000000000000000000000000000' } }, BASE_KNOWN_POOLS),
    ).toBeUndefined()
    // Clanker v4.0's modules on Base: SniperAuctionV0 and MevBlockDelay (clanker-devco/v4-contracts README, "v4.0").
    for (const v40 of ['0xFdc013ce003980889cFfd66b0c8329545ae1d1E8', '0xE143f9872A33c955F23cF442BB4B1EFB3A7402A2'])
      expect(unknownPoolReason('clanker', { ...pool, feeSources: { hook: HOOK, mevModule: v40 } }, BASE_KNOWN_POOLS)).toBeUndefined()
    expect(unknownPoolReason('clanker', { ...pool, hook: OTHER }, BASE_KNOWN_POOLS)).toContain(`hook ${OTHER}`)
    expect(unknownPoolReason('clanker', { ...pool, paired: { kind: 'eth', address: OTHER } }, BASE_KNOWN_POOLS)).toContain('pairs with eth')
    expect(unknownPoolReason('clanker', { ...pool, feeSources: { hook: HOOK, mevModule: OTHER } }, BASE_KNOWN_POOLS)).toContain(`fee module mevModule ${OTHER}`)
    // A launchpad without a list is not checked (its factory's allow-lists are all there is).
    expect(unknownPoolReason('zora', { ...pool, hook: OTHER }, BASE_KNOWN_POOLS)).toBeUndefined()
  })

  it("the devnet's configurations are every contract its deployment lists", () => {
    const addresses = {
      clanker: { factory: OTHER, hook: HOOK, dynamicHook: WETH, locker: OTHER, devBuy: OTHER, mevModule: MEV },
      doppler: { airlock: OTHER, hook: HOOK, rehypeInitializer: WETH, rehypeHook: MEV },
      zora: { factory: OTHER, hook: HOOK, route: { zora: OTHER, ethPool: {} } },
    } as unknown as Parameters<typeof devnetKnownPools>[0]
    const known = devnetKnownPools(addresses)
    expect(
      unknownPoolReason('doppler', { hook: WETH, paired: { kind: 'eth', address: OTHER }, feeSources: { hook: WETH, dopplerHook: MEV } }, known),
    ).toBeUndefined()
    expect(
      unknownPoolReason('doppler', { hook: '0x00000000000000000000000000000000000000cc', paired: { kind: 'weth', address: WETH }, feeSources: {} }, known),
    ).toBeDefined()
    expect(unknownPoolReason('zora', { hook: HOOK, paired: { kind: 'coin', address: OTHER }, feeSources: { hook: HOOK } }, known)).toBeUndefined()
  })
})

describe('shared deployers known by default', () => {
  it("Clanker's presale, Multicall3 and the EntryPoints, each with why; configured ones add to them", () => {
    expect(sharedDeployerWhy('0xeebbc567c3d612f50a67820f39cdd30dccf7e6b8')).toContain('presale')
    expect(sharedDeployerWhy('0xcA11bde05977b3631167028862bE2a173976CA11')).toContain('Multicall3')
    expect(sharedDeployerWhy('0x0000000071727De22E5E9d8BAf0edAc6f37da032')).toContain('EntryPoint')
    expect(sharedDeployerWhy(OTHER)).toBeUndefined()
    expect(sharedDeployerWhy(OTHER, [OTHER.toUpperCase().replace('0X', '0x')])).toContain('configured')
    expect(new Set(DEFAULT_SHARED_DEPLOYERS.map((d) => d.address.toLowerCase())).size).toBe(DEFAULT_SHARED_DEPLOYERS.length)
  })
})
