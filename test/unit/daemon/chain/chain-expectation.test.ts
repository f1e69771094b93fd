import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { CHECK_WALLET_OWNER, chainExpectation } from '../../../../daemon/chain/chain-expectation.ts'
import { KERNEL_META_FACTORY_ADDRESS } from '../../../../src/chain/canonical-addresses.ts'
import { kernelAccountAddress, kernelFactoryData } from '../../../../src/wallets/accounts/kernel-account-address.ts'
import type { ChainAddresses, ChainConfig } from '../../../../src/chain/chain-keys.ts'

const at = (n: number): Address => `0x${n.toString(16).padStart(40, '0')}`
const addresses: ChainAddresses = {
  stablecoin: at(1),
  weth: at(2),
  poolManager: at(3),
  stateView: at(4),
  v4Quoter: at(5),
  universalRouter: at(6),
  permit2: at(7),
  entryPoint: at(8),
  multicall3: at(9),
  v3Factory: at(10),
  ethUsdPool: at(11),
}
const chain = (extra: Partial<ChainAddresses>): ChainConfig => ({
  key: 'second_chain',
  chainId: 7777,
  rpcUrl: 'http://x',
  wsUrl: 'ws://x',
  addresses: { ...addresses, ...extra },
})

describe('chainExpectation', () => {
  it('checks the wallet factory and its derivation only when one is configured; never the optional positionManager', () => {
    const without = chainExpectation(chain({ positionManager: at(12) }), { realLaunchpads: false })
    expect(without.account).toBeUndefined()
    expect(without.contracts.map((c) => c.name)).toEqual([
      'stablecoin',
      'weth',
      'poolManager',
      'stateView',
      'entryPoint',
      'multicall3',
      'ethUsdPool',
      'v4Quoter',
    ])
    const withFactory = chainExpectation(chain({ accountFactory: at(13) }), { realLaunchpads: false })
    expect(withFactory.account?.factory).toBe(at(13))
    expect(withFactory.contracts.map((c) => c.name)).toContain('accountFactory')
  })
  it('with Kernel wallets, checks Kernel’s canonical contracts and the meta-factory’s derivation, not an accountFactory', () => {
    const kernel = chainExpectation(chain({ accountFactory: at(13) }), { realLaunchpads: false, accountKind: 'kernel' })
    expect(kernel.contracts.map((c) => c.name)).toEqual([
      'stablecoin',
      'weth',
      'poolManager',
      'stateView',
      'entryPoint',
      'Kernel v3.1 implementation',
      'KernelFactory',
      'Kernel meta-factory',
      'Kernel ECDSA validator',
      'multicall3',
      'ethUsdPool',
      'v4Quoter',
    ])
    expect(kernel.account).toMatchObject({
      factory: KERNEL_META_FACTORY_ADDRESS,
      owner: CHECK_WALLET_OWNER,
      expected: kernelAccountAddress(CHECK_WALLET_OWNER),
      derivation: { call: kernelFactoryData(CHECK_WALLET_OWNER), name: 'Kernel meta-factory' },
    })
  })
})
