import {
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  getContractAddress,
  http,
  zeroAddress,
  type Account,
  type Address,
  type Hex,
} from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import type { ZoraRoute } from '../../src/launchpads/zora/zora-route.ts'
import { isqrt } from '../../src/pricing/isqrt.ts'
import { loadLaunchpadArtifact, type LaunchpadArtifactName } from './devnet-artifacts.ts'
import {
  AFTER_ADD_LIQUIDITY_FLAG,
  AFTER_REMOVE_LIQUIDITY_FLAG,
  AFTER_SWAP_FLAG,
  AFTER_SWAP_RETURNS_DELTA_FLAG,
  BEFORE_INITIALIZE_FLAG,
  BEFORE_SWAP_FLAG,
  BEFORE_SWAP_RETURNS_DELTA_FLAG,
  mineHookSalt,
} from './mine-hook-salt.ts'
import { CLANKER_DEFAULT_POOL, REFERENCE_LAUNCH_FEES } from '../../src/launchpads/reference-launch.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, mineIfManual } from './send-devnet-tx.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { mineUntilReceipt, pauseAutomine } from '../anvil/mining-mode.ts'
import { constructAt } from '../chain/construct-at.ts'
import {
  BASE_CLANKER_FACTORY,
  BASE_CLANKER_V5_FACTORY,
  BASE_CLANKER_V5_HOOK,
  BASE_DOPPLER_AIRLOCK,
  BASE_ZORA_FACTORY,
} from '../../src/launchpads/base-addresses.ts'
import { BASE_REHYPE_FIXED_HOOK, BASE_REHYPE_SDK_HOOK, rehypeFeeDenominator } from '../../src/launchpads/doppler/rehype-deployments.ts'

/** Default launch fees of the devnet launchpads (pips), overridable per launch. */
export const DEVNET_LAUNCH_DEFAULTS = {
  /**
   * Clanker SDK default sniper fee: 66.6777% -> 4.1673% over 15 s; LP fee 1% on buys and sells; the pool starts at tick
   * -230,400 (~1e-10 WETH per token: ~10 ETH FDV, like Clanker's default) with tick spacing 200.
   */
  clanker: {
    startFee: REFERENCE_LAUNCH_FEES.clanker.startingFee,
    endFee: REFERENCE_LAUNCH_FEES.clanker.endingFee,
    decaySeconds: REFERENCE_LAUNCH_FEES.clanker.secondsToDecay,
    lpFee: REFERENCE_LAUNCH_FEES.clanker.lpFee,
    tickIfToken0IsClanker: CLANKER_DEFAULT_POOL.tickIfToken0IsClanker,
    tickSpacing: CLANKER_DEFAULT_POOL.tickSpacing,
  },
  /** Reported for Bankr launches: 80% -> 1.2% over 10 s. */
  doppler: {
    startFee: REFERENCE_LAUNCH_FEES.doppler.startFee,
    endFee: REFERENCE_LAUNCH_FEES.doppler.endFee,
    decaySeconds: REFERENCE_LAUNCH_FEES.doppler.durationSeconds,
  },
  /** Zora: 99% -> 1% over 10 s. */
  zora: { startFee: REFERENCE_LAUNCH_FEES.zora.startFee, endFee: REFERENCE_LAUNCH_FEES.zora.endFee, decaySeconds: REFERENCE_LAUNCH_FEES.zora.durationSeconds },
  /**
   * Clanker v5: the sniper fee on (99% -> the tax over the documented 20 s; startFee = endFee turns it off) and the buy
   * tax (endFee, 1% to 10%; the sell tax is the same): the reference launch's 10%.
   */
  clanker_v5: {
    startFee: REFERENCE_LAUNCH_FEES.clanker_v5.sniperStartFee,
    endFee: REFERENCE_LAUNCH_FEES.clanker_v5.buyTax,
    decaySeconds: REFERENCE_LAUNCH_FEES.clanker_v5.sniperSeconds,
  },
} as const

/**
 * WETH wei a devnet Clanker auction winner pays per wei of gas price above the round's gas peg (Base's module starts at
 * 0.0001 ether; the devnet's is small so a test's bid costs little).
 */
export const DEVNET_AUCTION_PAYMENT_PER_GAS_UNIT = 1_000n

/** Blocks the devnet ClankerMevBlockDelay locks a pool for (the "2-block delay" issue 22 reports on Base). */
export const DEVNET_CLANKER_BLOCK_DELAY = 2n

/** The devnet ZORA price: 100,000 ZORA per ETH (~0.03 USD at the devnet's 3,000 USD per ETH). */
export const DEVNET_ZORA_PER_ETH = 100_000n
/** ETH put into the devnet ETH/ZORA pool (full range, with the ZORA that price asks for). */
export const DEVNET_ZORA_POOL_ETH = 100n * 10n ** 18n

/** Generous fixed limits: the transactions are sent before their predecessors are mined, so nothing can be estimated. */
const DEPLOY_GAS = 10_000_000n
const CALL_GAS = 200_000n

/**
 * Deploys the devnet launchpads (Clanker v4 and v5, Doppler, Zora) on a devnet chain whose fixtures (PoolManager, WETH) exist: a CREATE2 hook
 * deployer, each hook at a mined address carrying its permission bits, each factory at its real Base address (Clanker v4
 * factory, Doppler Airlock, Zora coin factory: BASE_LAUNCHPADS), and the hook -> launchpad link.
 * Every address is known in advance (CREATE from the deployer's nonces, CREATE2 from mined salts), so all the
 * transactions are sent at once with consecutive nonces and land in one or two blocks even with 2-second blocks.
 * `deployer` is a funded local account that nothing else uses meanwhile.
 */
export async function deployDevnetLaunchpads(chain: ChainConfig, deployer: Account): Promise<LaunchpadAddresses> {
  const client = devnetPublicClient(chain)
  const wallet = createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: http(chain.rpcUrl) })
  const { poolManager, weth } = chain.addresses
  let nonce = await client.getTransactionCount({ address: deployer.address, blockTag: 'pending' })
  const hashes: Hex[] = []

  const create = async (name: LaunchpadArtifactName, args: readonly unknown[]): Promise<Address> => {
    const { abi, bytecode } = loadLaunchpadArtifact(name)
    const address = getContractAddress({ from: deployer.address, nonce: BigInt(nonce) })
    const data = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0])
    hashes.push(await wallet.sendTransaction({ data, gas: DEPLOY_GAS, nonce: nonce++ }))
    return getAddress(address)
  }
  const call = async (
    to: Address,
    name: LaunchpadArtifactName,
    functionName: string,
    args: readonly unknown[],
    gas = CALL_GAS,
    value?: bigint,
  ): Promise<void> => {
    const data = encodeFunctionData({ abi: loadLaunchpadArtifact(name).abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
    hashes.push(await wallet.sendTransaction({ to, data, gas, nonce: nonce++, value }))
  }

  // Every hook salt is mined (CPU only) before the first transaction is sent, so the transactions go out back to back
  // and land in one or two blocks whatever the block time: the hook deployer and the ZORA/ETH pool (whose token, its
  // nonce-1 CREATE, the Zora factory takes) are the deployer's next two CREATEs.
  const hookDeployer = getAddress(getContractAddress({ from: deployer.address, nonce: BigInt(nonce) }))
  const zoraEthPoolAddress = getAddress(getContractAddress({ from: deployer.address, nonce: BigInt(nonce + 1) }))
  const zoraToken = getAddress(getContractAddress({ from: zoraEthPoolAddress, nonce: 1n }))
  const mined = async (name: LaunchpadArtifactName, flags: number, extraArgs: readonly unknown[] = []) => {
    const { abi, bytecode } = loadLaunchpadArtifact(name)
    const initCode = encodeDeployData({ abi, bytecode, args: [poolManager, deployer.address, ...extraArgs] } as Parameters<typeof encodeDeployData>[0])
    return { initCode, ...(await mineHookSalt(hookDeployer, initCode, flags)) }
  }
  const hookPlans = {
    clanker: await mined('DevnetClankerHook', BEFORE_SWAP_FLAG | BEFORE_SWAP_RETURNS_DELTA_FLAG),
    clankerDynamic: await mined('DevnetClankerDynamicHook', BEFORE_SWAP_FLAG | BEFORE_SWAP_RETURNS_DELTA_FLAG),
    doppler: await mined('DevnetDopplerHook', BEFORE_SWAP_FLAG),
    // DopplerHookInitializer (Bankr's current pools): the pool hook running each pool's plugin (rehype, the swap
    // restrictor) or none (a static LP fee). The real one's permissions (src/initializers/DopplerHookInitializer.sol
    // getHookPermissions).
    rehypeInitializer: await mined(
      'DevnetDopplerHookInitializer',
      BEFORE_INITIALIZE_FLAG | AFTER_ADD_LIQUIDITY_FLAG | AFTER_REMOVE_LIQUIDITY_FLAG | AFTER_SWAP_FLAG | AFTER_SWAP_RETURNS_DELTA_FLAG,
    ),
    zora: await mined('DevnetZoraHook', BEFORE_SWAP_FLAG),
  }

  const d = DEVNET_LAUNCH_DEFAULTS
  // The three factories first, at their real Base addresses, so every later transaction can call them; every
  // constructor argument is a predicted address. Clanker's factory owner is the deployer. Doppler's airlock takes its
  // hooks. The Zora factory: coins pair with native ETH, ZORA or a creator coin; its launch fee is Zora's fixed one
  // (ZORA_LAUNCH_FEE).
  // One after another from one impersonated sender: sent at once they raced on its nonce (anvil's own: "nonce too
  // low"; explicit nonces: a later nonce arriving first waited for a block that automine never made).
  await impersonate(chain, FACTORY_PLACER)
  const clankerFactory = await placeFactory(chain, BASE_CLANKER_FACTORY, 'DevnetClankerFactory', [deployer.address])
  const dopplerAirlock = await placeFactory(chain, BASE_DOPPLER_AIRLOCK, 'DevnetDopplerAirlock', [
    poolManager,
    weth,
    getAddress(hookPlans.doppler.address),
    getAddress(hookPlans.rehypeInitializer.address),
    d.doppler.startFee,
    d.doppler.endFee,
    d.doppler.decaySeconds,
  ])
  // The rehype plugins at two of their real Base addresses, each dividing as deployed there (rehype-deployments.ts):
  // doppler-sdk 1.0.30's (800,000, 1.25x the announced fee) and the July 2026 one (1e6).
  // Their initializer (a constructor argument, as the real BaseDopplerHookInitializer's) is the mined pool hook; a later
  // deployment on the same chain constructs them again for its own.
  const pluginArgs = (address: Address) => [getAddress(hookPlans.rehypeInitializer.address), rehypeFeeDenominator(address)]
  const rehypeHook = await placeFactory(chain, BASE_REHYPE_SDK_HOOK, 'DevnetRehypeDopplerHook', pluginArgs(BASE_REHYPE_SDK_HOOK))
  const rehypeHookFixed = await placeFactory(chain, BASE_REHYPE_FIXED_HOOK, 'DevnetRehypeDopplerHook', pluginArgs(BASE_REHYPE_FIXED_HOOK))
  const zoraFactory = await placeFactory(chain, BASE_ZORA_FACTORY, 'DevnetZoraFactory', [
    poolManager,
    zoraToken,
    getAddress(hookPlans.zora.address),
    d.zora.startFee,
    d.zora.endFee,
    d.zora.decaySeconds,
  ])
  // Clanker v5's hook and factory at their Base addresses: each names the other (both addresses are known). The hook's
  // constructor checks that its address carries its permissions, so its imitation implements exactly the callbacks the
  // real address's bits encode (DevnetClankerV5Hook).
  const clankerV5Hook = await placeFactory(chain, BASE_CLANKER_V5_HOOK, 'DevnetClankerV5Hook', [poolManager, BASE_CLANKER_V5_FACTORY])
  const clankerV5Factory = await placeFactory(chain, BASE_CLANKER_V5_FACTORY, 'DevnetClankerV5Factory', [poolManager, weth, BASE_CLANKER_V5_HOOK])

  // From here on the deployer's transactions go out back to back, each without waiting for the one before: with
  // automine on, paused for them (anvil's auto-miner can strand one of such a burst: mining-mode.ts pauseAutomine).
  const automine = await pauseAutomine(chain.rpcUrl)
  try {
    if ((await create('DevnetHookDeployer', [])) !== hookDeployer) throw new Error('the hook deployer is not at its predicted address')
    // ZORA and its ETH market (the pool contract creates the token first: its nonce 1).
    const zoraEthPool = await create('DevnetZoraEthPool', [poolManager])
    if (zoraEthPool !== zoraEthPoolAddress) throw new Error('the ZORA/ETH pool is not at its predicted address')
    const hook = async (plan: { initCode: Hex; salt: Hex; address: Address }): Promise<Address> => {
      await call(hookDeployer, 'DevnetHookDeployer', 'deploy', [plan.salt, plan.initCode], DEPLOY_GAS)
      return getAddress(plan.address)
    }
    const clankerHook = await hook(hookPlans.clanker)
    const clankerDynamicHook = await hook(hookPlans.clankerDynamic)
    const dopplerHook = await hook(hookPlans.doppler)
    const rehypeInitializer = await hook(hookPlans.rehypeInitializer)
    const zoraHook = await hook(hookPlans.zora)
    // Not on Base (doppler-sdk 1.0.30 lists it on another chain only); a plugin any Airlock owner may enable.
    const swapRestrictor = await create('DevnetSwapRestrictorDopplerHook', [rehypeInitializer])

    // Clanker's modules are their own contracts, as on Base: the MEV module (SniperAuctionV2; bids pay
    // DEVNET_AUCTION_PAYMENT_PER_GAS_UNIT), the LP locker and the DevBuy extension, all enabled on the factory below.
    const clankerMevModule = await create('DevnetClankerSniperAuction', [weth, DEVNET_AUCTION_PAYMENT_PER_GAS_UNIT])
    const clankerLocker = await create('DevnetClankerLpLocker', [poolManager, clankerFactory])
    const clankerDevBuy = await create('DevnetClankerDevBuy', [clankerFactory, poolManager, weth])
    // Clanker v4.0's modules (clanker-devco/v4-contracts README "v4.0" on Base: ClankerMevBlockDelay, ClankerSniperAuctionV0),
    // selectable per launch (`devnet launch --mev-module`): the block delay of 2 blocks the issue reports, the V0 auction
    // with the devnet's small payment per gas unit.
    const clankerMevBlockDelay = await create('DevnetClankerMevBlockDelay', [DEVNET_CLANKER_BLOCK_DELAY])
    const clankerMevAuctionV0 = await create('DevnetClankerSniperAuctionV0', [weth, DEVNET_AUCTION_PAYMENT_PER_GAS_UNIT])
    await call(zoraEthPool, 'DevnetZoraEthPool', 'open', [sqrtPriceX96Of(DEVNET_ZORA_PER_ETH), deployer.address], DEPLOY_GAS, DEVNET_ZORA_POOL_ETH)

    await call(clankerHook, 'DevnetClankerHook', 'setLaunchpad', [clankerFactory])
    await call(clankerDynamicHook, 'DevnetClankerDynamicHook', 'setLaunchpad', [clankerFactory])
    // The real factory is deployed deprecated and its owner enables each module (clanker-devco/v4-contracts src/Clanker.sol).
    await call(clankerFactory, 'DevnetClankerFactory', 'setDeprecated', [false])
    for (const h of [clankerHook, clankerDynamicHook]) {
      await call(clankerFactory, 'DevnetClankerFactory', 'setHook', [h, true])
      await call(clankerFactory, 'DevnetClankerFactory', 'setLocker', [clankerLocker, h, true])
    }
    await call(clankerFactory, 'DevnetClankerFactory', 'setExtension', [clankerDevBuy, true])
    await call(clankerFactory, 'DevnetClankerFactory', 'setMevModule', [clankerMevModule, true])
    await call(clankerFactory, 'DevnetClankerFactory', 'setMevModule', [clankerMevBlockDelay, true])
    await call(clankerFactory, 'DevnetClankerFactory', 'setMevModule', [clankerMevAuctionV0, true])
    await call(dopplerHook, 'DevnetDopplerHook', 'setLaunchpad', [dopplerAirlock])
    await call(rehypeInitializer, 'DevnetDopplerHookInitializer', 'setLaunchpad', [dopplerAirlock])
    // Each plugin enabled for its initialization and swap callbacks (ON_INITIALIZATION_FLAG | ON_SWAP_FLAG).
    await call(rehypeInitializer, 'DevnetDopplerHookInitializer', 'setDopplerHookState', [
      [rehypeHook, rehypeHookFixed, swapRestrictor],
      [3n, 3n, 3n],
    ])
    await call(zoraHook, 'DevnetZoraHook', 'setLaunchpad', [zoraFactory])

    if (automine.paused) await mineUntilReceipt(chain.rpcUrl, hashes.at(-1)!)
    else await mineIfManual(chain)
    for (const hash of hashes) {
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 60_000 })
      if (receipt.status !== 'success') throw new PrebuyError('devnet_deploy_failed', `A devnet launchpad deployment step reverted (${hash}).`)
    }
    const addresses: LaunchpadAddresses = {
      clanker: {
        factory: clankerFactory,
        hook: clankerHook,
        dynamicHook: clankerDynamicHook,
        locker: clankerLocker,
        devBuy: clankerDevBuy,
        mevModule: clankerMevModule,
        mevBlockDelay: clankerMevBlockDelay,
        mevAuctionV0: clankerMevAuctionV0,
      },
      doppler: { airlock: dopplerAirlock, hook: dopplerHook, rehypeInitializer, rehypeHook, rehypeHookFixed, swapRestrictor },
      zora: { factory: zoraFactory, hook: zoraHook, route: devnetZoraRoute(zoraToken) },
      clankerV5: { factory: clankerV5Factory, hook: clankerV5Hook },
    }
    if (!(await devnetLaunchpadsExist(chain, addresses))) {
      throw new PrebuyError('devnet_deploy_failed', 'A devnet launchpad contract is not at its expected address.')
    }
    return addresses
  } finally {
    await automine.resume()
  }
}

/**
 * Who sends the transactions that construct the factories at their Base addresses: an address anvil impersonates, so
 * the launchpad deployer's nonces (which every other address is predicted from) are untouched. The factories'
 * constructors only store their arguments (the owner is an argument), so the sender does not matter to them.
 */
const FACTORY_PLACER: Address = '0x00000000000000000000000000000000000C0dE5'

/**
 * A launchpad factory at its real Base address (the same on the second chain): its constructor run there (constructAt,
 * devnet/chain/construct-at.ts), so its own address, in the tokens' CREATE2 addresses and in its events, is Base's.
 * Awaited (mined) before it returns: later transactions call the factory. The placer is impersonated by the caller. A later deployment on the same chain
 * constructs it again (one set of devnet launchpads per chain).
 */
async function placeFactory(chain: ChainConfig, target: Address, name: LaunchpadArtifactName, args: readonly unknown[]): Promise<Address> {
  const { abi, bytecode, deployedBytecode } = loadLaunchpadArtifact(name)
  const creationCode = encodeDeployData({ abi, bytecode, args } as Parameters<typeof encodeDeployData>[0])
  const send = async (to: Address, data: Hex): Promise<Hex> => {
    const tx = { from: FACTORY_PLACER, to, data, gas: `0x${DEPLOY_GAS.toString(16)}` }
    const hash = await jsonRpc<Hex>(chain.rpcUrl, 'eth_sendTransaction', [tx])
    const receipt = await confirmDevnetTx(chain, hash, { allowRevert: true })
    if (receipt.status !== 'success') throw new PrebuyError('devnet_deploy_failed', `Placing ${name} at ${target} reverted (${hash}).`)
    return hash
  }
  await constructAt({ rpcUrl: chain.rpcUrl, from: FACTORY_PLACER, send }, target, creationCode, (deployedBytecode.length - 2) / 2)
  return getAddress(target)
}

/** Whether every launchpad contract of `addresses` has code on the chain (a restarted devnet keeps them). */
export async function devnetLaunchpadsExist(chain: ChainConfig, addresses: LaunchpadAddresses): Promise<boolean> {
  const client = devnetPublicClient(chain)
  const all = [
    addresses.clanker.factory,
    addresses.clanker.hook,
    addresses.clanker.dynamicHook,
    addresses.clanker.locker,
    addresses.clanker.devBuy,
    addresses.clanker.mevModule,
    addresses.clanker.mevBlockDelay,
    addresses.clanker.mevAuctionV0,
    addresses.doppler.airlock,
    addresses.doppler.hook,
    addresses.doppler.rehypeInitializer,
    addresses.doppler.rehypeHook,
    addresses.doppler.rehypeHookFixed,
    addresses.doppler.swapRestrictor,
    addresses.zora.factory,
    addresses.zora.hook,
    addresses.zora.route.zora,
    addresses.clankerV5.factory,
    addresses.clankerV5.hook,
  ]
  const codes = await Promise.all(all.map((address) => client.getCode({ address })))
  return codes.every((code) => code !== undefined && code !== '0x')
}

/** sqrtPriceX96 of a pool whose currency1 is worth 1/`price` of currency0: floor(sqrt(price) * 2^96). */
const sqrtPriceX96Of = (price: bigint): bigint => isqrt(price << 192n)

/** The devnet ETH/ZORA pool's key (DevnetZoraEthPool.poolKey: native ETH, 0.3%, tick spacing 60, no hook). */
export const devnetZoraRoute = (zora: Address): ZoraRoute => ({
  zora,
  ethPool: { currency0: zeroAddress, currency1: zora, fee: 3_000, tickSpacing: 60, hooks: zeroAddress },
})
