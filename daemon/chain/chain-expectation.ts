import { zeroAddress, type Address } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { ChainExpectation } from '../../src/chain/chain-mismatch.ts'
import { RPC_BATCH_SIZE, SIMULATION_CALL_GAS } from '../../src/chain/node-requirements.ts'
import { USDC_DECIMALS } from '../../src/domain/order-bounds.ts'
import { BASE_LAUNCHPADS } from '../../src/launchpads/create-adapters.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { BASE_ZORA_TOKEN } from '../../src/launchpads/zora/zora-route.ts'
import { simpleAccountAddress } from '../../src/wallets/accounts/simple-account-address.ts'
import { kernelAccountAddress, kernelFactoryData } from '../../src/wallets/accounts/kernel-account-address.ts'
import type { SmartAccountKind } from '../../src/wallets/accounts/operation-account.ts'
import {
  KERNEL_ECDSA_VALIDATOR_ADDRESS,
  KERNEL_META_FACTORY_ADDRESS,
  KERNEL_V3_1_FACTORY_ADDRESS,
  KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
} from '../../src/chain/canonical-addresses.ts'

/**
 * The owner whose wallet address start-up asks the factory for: any owner would do (the derivation is the same
 * function of the owner for every key), and this one holds no funds and no key of ours.
 */
export const CHECK_WALLET_OWNER: Address = '0x000000000000000000000000000000000000c4ec'

export interface ExpectationOptions {
  /** Real chains: Base's published launchpads are indexed on `base` (daemon/workers/launch-workers.ts), so they must be there. */
  realLaunchpads: boolean
  /** launches.zoraEthPool: the ZORA route's pool, bought through on real Base. */
  zoraEthPool?: PoolKey | undefined
  /** wallet.accountKind (default 'simple'): which wallet factory must be there and derive our addresses. */
  accountKind?: SmartAccountKind
}

/**
 * What the daemon assumes about one chain. The contracts listed are the ones the daemon calls: the stablecoin, WETH,
 * the v4 PoolManager and StateView (launch detection, prices), the EntryPoint and the wallet factory, Multicall3
 * (balances, nonces), the ETH/USD pool; and on real Base the launchpads' factories. The configured positionManager,
 * v4Quoter, universalRouter, permit2 and v3Factory are not called by the daemon, so they are not checked. Our own
 * contracts (the buy router, vesting, OTC settlement, dev-buy coordinator) are not required to start: the daemon runs
 * without buying until they are deployed (daemon/chain/contracts-watch.ts, `prebuy contracts deploy`).
 * SimpleAccount wallets need the configured accountFactory; Kernel v3.1 wallets need Kernel's canonical contracts
 * (implementation, KernelFactory, meta-factory, ECDSA validator; src/chain/canonical-addresses.ts) and then ignore an
 * accountFactory. Either way the factory must derive, for a test owner, the address the daemon computes offline.
 */
export function chainExpectation(chain: ChainConfig, options: ExpectationOptions): ChainExpectation {
  const a = chain.addresses
  const kernel = options.accountKind === 'kernel'
  const contracts: Array<{ name: string; address: Address }> = [
    { name: 'stablecoin', address: a.stablecoin },
    { name: 'weth', address: a.weth },
    { name: 'poolManager', address: a.poolManager },
    { name: 'stateView', address: a.stateView },
    { name: 'entryPoint', address: a.entryPoint },
    // Optional in the config without SimpleAccount wallets (positionManager is never called, so never checked).
    ...(kernel ? KERNEL_CONTRACTS : a.accountFactory ? [{ name: 'accountFactory', address: a.accountFactory }] : []),
    { name: 'multicall3', address: a.multicall3 },
    { name: 'ethUsdPool', address: a.ethUsdPool },
    { name: 'v4Quoter', address: a.v4Quoter },
  ]
  if (options.realLaunchpads && chain.key === 'base') {
    contracts.push(
      { name: 'Clanker factory', address: BASE_LAUNCHPADS.clanker.factory },
      { name: 'Doppler Airlock', address: BASE_LAUNCHPADS.doppler.airlock },
      { name: 'Zora factory', address: BASE_LAUNCHPADS.zora.factory },
      { name: 'Clanker v5 factory', address: BASE_LAUNCHPADS.clankerV5.factory },
      { name: 'Clanker v5 hook', address: BASE_LAUNCHPADS.clankerV5.hook },
    )
    if (options.zoraEthPool) {
      contracts.push({ name: 'ZORA token', address: BASE_ZORA_TOKEN })
      if (options.zoraEthPool.hooks !== zeroAddress) contracts.push({ name: 'launches.zoraEthPool.hooks', address: options.zoraEthPool.hooks })
    }
  }
  return {
    key: chain.key,
    chainId: chain.chainId,
    contracts,
    stablecoin: a.stablecoin,
    stablecoinDecimals: USDC_DECIMALS,
    weth: a.weth,
    ethUsdPool: a.ethUsdPool,
    ...(kernel
      ? { account: KERNEL_ACCOUNT_CHECK }
      : a.accountFactory
        ? { account: { factory: a.accountFactory, owner: CHECK_WALLET_OWNER, expected: simpleAccountAddress(a.accountFactory, CHECK_WALLET_OWNER) } }
        : {}),
    node: { callGas: SIMULATION_CALL_GAS, batchSize: RPC_BATCH_SIZE },
  }
}

const KERNEL_CONTRACTS: Array<{ name: string; address: Address }> = [
  { name: 'Kernel v3.1 implementation', address: KERNEL_V3_1_IMPLEMENTATION_ADDRESS },
  { name: 'KernelFactory', address: KERNEL_V3_1_FACTORY_ADDRESS },
  { name: 'Kernel meta-factory', address: KERNEL_META_FACTORY_ADDRESS },
  { name: 'Kernel ECDSA validator', address: KERNEL_ECDSA_VALIDATOR_ADDRESS },
]

/** The meta-factory's simulated deployWithFactory answers where the test owner's Kernel wallet would be deployed. */
const KERNEL_ACCOUNT_CHECK: NonNullable<ChainExpectation['account']> = {
  factory: KERNEL_META_FACTORY_ADDRESS,
  owner: CHECK_WALLET_OWNER,
  expected: kernelAccountAddress(CHECK_WALLET_OWNER),
  derivation: {
    call: kernelFactoryData(CHECK_WALLET_OWNER),
    name: 'Kernel meta-factory',
    describe: `deployWithFactory(KernelFactory, initialize(${CHECK_WALLET_OWNER}), 0)`,
    hint: 'not Kernel v3.1 at its canonical addresses?',
  },
}
