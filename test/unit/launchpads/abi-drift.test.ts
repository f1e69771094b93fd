import { airlockAbi, decayMulticurveInitializerHookAbi, getAddresses } from '@whetstone-research/doppler-sdk/evm'
import * as zoraDeployments from '@zoralabs/protocol-deployments'
import { CLANKERS } from 'clanker-sdk'
import { type Abi, type AbiEvent, type AbiFunction, type Address, isAddressEqual } from 'viem'
import { describe, expect, it } from 'vitest'
import { BASE_CLANKER_FACTORY, BASE_DOPPLER_AIRLOCK, BASE_ZORA_FACTORY } from '../../../src/launchpads/base-addresses.ts'
import { CLANKER_TOKEN_CREATED } from '../../../src/launchpads/clanker/clanker-abi.ts'
import { DOPPLER_AIRLOCK_ABI, DOPPLER_CREATE, DOPPLER_HOOK_ABI } from '../../../src/launchpads/doppler/doppler-abi.ts'
import { ZORA_COIN_CREATED_V4, ZORA_CREATOR_COIN_CREATED } from '../../../src/launchpads/zora/zora-abi.ts'
import { ZORA_LIQUIDITY_MIGRATED } from '../../../src/launchpads/zora/zora-migration.ts'

/**
 * The ABI fragments the adapters decode and call, compared with the ABIs the protocols publish on npm (clanker-sdk,
 * @zoralabs/protocol-deployments, @whetstone-research/doppler-sdk; pinned devDependencies): a renamed field, a changed
 * type, an `indexed` flag or a different return layout fails here instead of silently missing launches on Base.
 * Clanker's SniperAuctionV2 and hook getters (CLANKER_AUCTION_ABI, CLANKER_FEE_ABI) are not in clanker-sdk's package
 * (only their init-data encodings are); they were read from clanker-devco/v4-contracts and are cited in clanker-abi.ts.
 */

// The package's type declarations re-export without file extensions, which NodeNext resolution does not follow: the
// values are there at run time, typed here.
const { coinFactoryABI, coinFactoryAddress, coinABI, coinV4ABI } = zoraDeployments as unknown as {
  coinFactoryABI: Abi
  coinFactoryAddress: Record<number, Address>
  coinABI: Abi
  coinV4ABI: Abi
}

/** The item of `abi` with that type and name (exactly one). */
function published(abi: Abi, type: 'event' | 'function', name: string): AbiEvent | AbiFunction {
  const items = abi.filter((item) => item.type === type && 'name' in item && item.name === name)
  expect(items, `${type} ${name} in the published ABI`).toHaveLength(1)
  return items[0] as AbiEvent | AbiFunction
}

/** Types, indexed flags and outputs, without parameter names (which may differ harmlessly). */
function shape(item: AbiEvent | AbiFunction): unknown {
  const param = (p: { type: string; indexed?: boolean; components?: readonly unknown[] }): unknown => ({
    type: p.type,
    indexed: p.indexed ?? false,
    components: (p.components as Array<{ type: string }> | undefined)?.map(param),
  })
  return item.type === 'event'
    ? { name: item.name, inputs: item.inputs.map(param) }
    : { name: item.name, inputs: item.inputs.map(param), outputs: item.outputs.map(param), stateMutability: item.stateMutability }
}

function expectSame(ours: AbiEvent | AbiFunction, abi: Abi): void {
  const theirs = published(abi, ours.type, ours.name)
  expect(shape(ours), `${ours.type} ${ours.name}`).toEqual(shape(theirs))
}

describe('launchpad ABIs match what the protocols publish', () => {
  it('Clanker v4 on Base: TokenCreated and the factory address', () => {
    const v4 = CLANKERS.clanker_v4
    expect(v4.chainId).toBe(8453)
    expect(isAddressEqual(v4.address, BASE_CLANKER_FACTORY)).toBe(true)
    expectSame(CLANKER_TOKEN_CREATED, v4.abi as Abi)
  })

  it('Zora coins on Base: CoinCreatedV4 and CreatorCoinCreated (the whole PoolKey) and the factory address', () => {
    const factory = coinFactoryAddress[8453]
    expect(factory && isAddressEqual(factory, BASE_ZORA_FACTORY)).toBe(true)
    expectSame(ZORA_COIN_CREATED_V4, coinFactoryABI)
    expectSame(ZORA_CREATOR_COIN_CREATED, coinFactoryABI)
  })

  it("Zora coins: the coin's LiquidityMigrated (migrateLiquidity), in both coin ABIs", () => {
    const [migrated] = ZORA_LIQUIDITY_MIGRATED
    expectSame(migrated!, coinABI)
    expectSame(migrated!, coinV4ABI)
  })

  it('Doppler on Base: the Airlock (Create, the 10-field getAssetData) and the decay-multicurve hook (the 5-field getFeeScheduleOf)', () => {
    const airlock = getAddresses(8453).airlock as Address | undefined
    expect(airlock && isAddressEqual(airlock, BASE_DOPPLER_AIRLOCK)).toBe(true)
    expectSame(DOPPLER_CREATE, airlockAbi as Abi)
    for (const item of DOPPLER_AIRLOCK_ABI) expectSame(item, airlockAbi as Abi)
    // The SDK's hook ABI carries the getter only; FeeScheduleSet was read from the hook's source
    // (whetstoneresearch/doppler legacy/src/initializers/DecayMulticurveInitializerHook.sol).
    for (const item of DOPPLER_HOOK_ABI.filter((i) => i.type === 'function')) expectSame(item, decayMulticurveInitializerHookAbi as Abi)
  })
})
