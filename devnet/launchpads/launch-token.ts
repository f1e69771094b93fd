import { randomBytes } from 'node:crypto'
import {
  bytesToHex,
  encodeAbiParameters,
  parseAbiParameters,
  encodeDeployData,
  getAddress,
  getContractAddress,
  isAddressEqual,
  keccak256,
  parseAbi,
  zeroAddress,
  type Address,
  type Hex,
  type TransactionReceipt,
} from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import type { DEVNET_CLANKER_MEV_MODULES } from '../../src/admin-api/contract.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { Launchpad } from '../../src/domain/records.ts'
import { createLaunchpadAdapters, devnetAdapterOptions, type LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import { readLaunchAttribution } from '../../src/launchpads/read-launch-attribution.ts'
import { findInitializedPools } from '../../src/launchpads/v4-events.ts'
import type { DecodedLaunch, LaunchCandidate, PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { maxUsableTick } from '../../src/pricing/v4/tick-math.ts'
import {
  CLANKER_DYNAMIC3,
  type ClankerDeploymentConfig,
  clankerDeploymentConfig,
  clankerDevBuyExtension,
  clankerTokenCreate2Salt,
} from '../../src/launchpads/clanker/clanker-deployment-config.ts'
import type { ClankerPositionConfig } from '../../src/launchpads/clanker/clanker-launch-pool.ts'
import { DEVNET_LAUNCH_DEFAULTS } from './deploy-devnet-launchpads.ts'
import { CLANKER_V5_SNIPER } from '../../src/pricing/schedules/clanker-v5.ts'
import { loadLaunchpadArtifact } from './devnet-artifacts.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, submitDevnetCall, type DevnetCall } from './send-devnet-tx.ts'

/**
 * What each devnet hook accepts as a starting fee, like the real ones: Clanker's MEV cap, Doppler's cap, Zora any,
 * Clanker v5's documented 99% sniper fee.
 */
export const MAX_START_FEE: Record<Launchpad, number> = { clanker: 800_000, doppler: 900_000, zora: 1_000_000, clanker_v5: CLANKER_V5_SNIPER.startFee }

export interface LaunchTokenOptions {
  chain: ChainConfig
  addresses: LaunchpadAddresses
  launchpad: Launchpad
  /** The token admin / creator / payout recipient the launch names (a field its sender chooses freely). */
  creator: Address
  /**
   * Impersonated: who sends the launch transaction, i.e. the factory's caller (default: the creator). A sender other
   * than the creator is how a forged launch looks: anyone can name anyone as the creator.
   */
  sender?: Address
  name: string
  symbol: string
  /** Launch fee in pips; omitted values take the launchpad's devnet default. */
  startFee?: number
  endFee?: number
  decaySeconds?: number
  /** CREATE2 salt of the token; random when omitted. */
  salt?: Hex
  /** Which side of its paired asset the token must sort on (a salt is searched for); either when omitted. */
  tokenSide?: 'currency0' | 'currency1'
  /**
   * What the token pairs with, where the launchpad allows a choice (DEVNET_PAIRS). Default: the launchpad's first.
   */
  paired?: DevnetPair
  /** With `paired: 'coin'` (Zora): the creator coin the content coin pairs with (launched before on this factory). */
  pairedCoin?: Address
  /** Zora only: a creator coin (paired with ZORA, announced by CreatorCoinCreated) instead of a content coin. */
  creatorCoin?: boolean
  /**
   * Zora only: a trend coin (permissionless, named by its ticker `symbol`, paired with ZORA, announced by
   * TrendCoinCreated, at an address derived from the ticker: one per symbol per factory).
   */
  trendCoin?: boolean
  /**
   * Clanker only: a dev buy of this much ETH (wei) in the deployment, through the DevBuy extension, for the creator: the
   * pool's price at launch is the price after it. devBuyWeiForUsdc converts a stablecoin amount at the devnet price.
   */
  devBuyWei?: bigint
  /** Clanker only: who receives the dev buy's tokens (the DevBuy extension data's recipient). Default: the creator. */
  devBuyRecipient?: Address
  /** Clanker only: the dynamic-fee hook (clanker-sdk's Dynamic3: 1% base, up to 3%) instead of the static 1%. */
  dynamicFee?: boolean
  /**
   * Clanker only: the MEV module (DEVNET_CLANKER_MEV_MODULES): SniperAuctionV2 (default, Base's v4.1 one, with the
   * sniper fee of startFee/endFee/decaySeconds), or one of Clanker v4.0's, which take no fee options: `block_delay`
   * (ClankerMevBlockDelay, 2 blocks) or `sniper_auction_v0` (ClankerSniperAuctionV0).
   */
  mevModule?: ClankerDevnetMevModule
  /**
   * Clanker only: the LP locker's positions (ticks as if the token were currency0, on spacing 200, lower ticks at or
   * above the starting tick -230,400, bps adding up to 10,000, at most 7). Default: one position over the whole range
   * from the starting tick (DEVNET_CLANKER_POSITIONS). The locker checks them as the real one and reverts otherwise.
   */
  positions?: readonly ClankerPositionConfig[]
  /** Doppler only: a rehype pool (0.7% LP fee + the decaying fee taken from the output) instead of decay multicurve. */
  rehype?: boolean
  /**
   * Doppler rehype only: which deployment's plugin: `sdk` (default: doppler-sdk 1.0.30's Base address, dividing by
   * 800,000 as deployed, 1.25x the announced fee) or `fixed` (the July 2026 deployment, dividing by 1e6).
   */
  rehypeDeployment?: 'sdk' | 'fixed'
  /** Doppler only: a DopplerHookInitializer pool without a plugin, at this static LP fee (pips): no fee schedule. */
  staticFee?: number
  /** Doppler only: a DopplerHookInitializer pool with the swap restrictor: these senders may each buy maxAmount. */
  swapRestrictor?: { approved: readonly Address[]; maxAmount: bigint }
  /** Doppler only: a DopplerERC20V1 asset: no holder but the excluded ones above maxBalance until endsAt (unix s). */
  balanceLimit?: { maxBalance: bigint; endsAt: number }
}

/** The devnet Clanker's MEV modules, default first (see LaunchTokenOptions.mevModule). */
export type ClankerDevnetMevModule = (typeof DEVNET_CLANKER_MEV_MODULES)[number]

/** The module's address on the devnet Clanker factory. */
export const devnetClankerMevModuleAddress = (clanker: LaunchpadAddresses['clanker'], module: ClankerDevnetMevModule = 'sniper_auction_v2'): Address =>
  module === 'block_delay' ? clanker.mevBlockDelay : module === 'sniper_auction_v0' ? clanker.mevAuctionV0 : clanker.mevModule

/** The LP fee of the devnet's plugin pools (Bankr: "a 0.7% pool fee plus the hook's legs"). */
export const DEVNET_REHYPE_LP_FEE = 7_000

export type DevnetPair = 'weth' | 'eth' | 'zora' | 'coin'

/**
 * The pairs each devnet launchpad launches with, default first: Clanker WETH (the SDK's default; any ERC-20 on Base,
 * never native ETH), Doppler a WETH (Bankr's) or native-ETH numeraire, Zora native ETH, ZORA or a creator coin, Clanker
 * v5 native ETH (the documentation's "native coin", first of its registered pair tokens) or WETH.
 */
export const DEVNET_PAIRS: Record<Launchpad, readonly DevnetPair[]> = {
  clanker: ['weth'],
  doppler: ['weth', 'eth'],
  zora: ['eth', 'zora', 'coin'],
  clanker_v5: ['eth', 'weth'],
}

/** The launch's paired asset, checked against the launchpad (creator coins always pair with ZORA, as on Base). */
export function devnetPairOf(o: Pick<LaunchTokenOptions, 'launchpad' | 'paired' | 'creatorCoin' | 'pairedCoin' | 'trendCoin'>): DevnetPair {
  const allowed = DEVNET_PAIRS[o.launchpad]
  if (o.creatorCoin && o.launchpad !== 'zora') throw new PrebuyError('invalid_launch_pair', 'Only Zora launches creator coins.')
  const paired = o.paired ?? (o.creatorCoin || o.trendCoin ? 'zora' : allowed[0]!)
  if (!allowed.includes(paired)) {
    throw new PrebuyError('invalid_launch_pair', `A ${o.launchpad} launch pairs with ${allowed.join(' or ')}, not ${paired}.`)
  }
  if (o.creatorCoin && paired !== 'zora') throw new PrebuyError('invalid_launch_pair', 'A Zora creator coin pairs with ZORA.')
  if ((paired === 'coin') !== (o.pairedCoin !== undefined)) {
    throw new PrebuyError('invalid_launch_pair', 'A coin paired with a creator coin names it (pairedCoin), and only such a coin does.')
  }
  return paired
}

/** The paired asset's address on the devnet (native ETH: address(0)). */
const pairedAddress = (o: Pick<LaunchTokenOptions, 'chain' | 'addresses' | 'pairedCoin'>, pair: DevnetPair): Address =>
  pair === 'eth' ? zeroAddress : pair === 'zora' ? o.addresses.zora.route.zora : pair === 'coin' ? o.pairedCoin! : o.chain.addresses.weth

export interface LaunchedToken {
  token: Address
  poolKey: PoolKey
  poolId: Hex
  txHash: Hex
  blockNumber: bigint
  /** The launch as the launchpad adapter decodes it from the real log. */
  launch: LaunchCandidate
}

/** Launches a token on a devnet launchpad as `creator` (impersonated), like a real creator would. */
export async function launchToken(options: LaunchTokenOptions): Promise<LaunchedToken> {
  const outcome = await launchTokenOrUnsupported(options)
  if (outcome.kind === 'unsupported') {
    throw new PrebuyError('launch_unsupported', `The ${options.launchpad} launch is not one prebuy can buy: ${outcome.reason}.`)
  }
  return outcome
}

/** A devnet launch the adapter decodes as genuine but unsupported (a swap restrictor): its pool and the reason. */
export interface UnsupportedDevnetLaunch {
  kind: 'unsupported'
  token: Address
  poolKey: PoolKey
  poolId: Hex
  txHash: Hex
  blockNumber: bigint
  paired: { kind: DevnetPair; address: Address }
  reason: string
}

/**
 * Launches as launchToken, but a launch the adapter decodes as unsupported (a shape prebuy does not buy, such as the
 * swap restrictor) is returned with its reason instead of thrown: `prebuy devnet launch` makes every devnet shape.
 */
export async function launchTokenOrUnsupported(options: LaunchTokenOptions): Promise<(LaunchedToken & { kind: 'launch' }) | UnsupportedDevnetLaunch> {
  const hash = await submitLaunch(options)
  const receipt = await confirmDevnetTx(options.chain, hash)
  const decoded = await decodeOwnLaunch(options.chain, options.addresses, options.launchpad, receipt)
  const { transactionHash: txHash, blockNumber } = receipt
  if (decoded.kind === 'launch') {
    const launch = decoded.candidate
    return { kind: 'launch', token: launch.token, poolKey: launch.poolKey, poolId: launch.poolId, txHash, blockNumber, launch }
  }
  const token = decoded.launch.token
  const pool = findInitializedPools(receipt.logs, options.chain.addresses.poolManager).find(
    (p) => isAddressEqual(p.poolKey.currency0, token) || isAddressEqual(p.poolKey.currency1, token),
  )
  if (!pool) throw new PrebuyError('launch_not_decoded', `The ${options.launchpad} launch initialises no pool of its token.`)
  const pairedSide = isAddressEqual(pool.poolKey.currency0, token) ? pool.poolKey.currency1 : pool.poolKey.currency0
  return {
    kind: 'unsupported',
    token,
    poolKey: pool.poolKey,
    poolId: pool.poolId,
    txHash,
    blockNumber,
    paired: { kind: devnetPairOf(options), address: getAddress(pairedSide) },
    reason: decoded.reason,
  }
}

/** Sends the launch transaction without waiting for it (tests that put a snipe in the same block). */
export async function submitLaunch(options: LaunchTokenOptions): Promise<Hex> {
  const { chain, launchpad, creator } = options
  const defaults = DEVNET_LAUNCH_DEFAULTS[launchpad]
  const startFee = options.startFee ?? defaults.startFee
  const endFee = options.endFee ?? defaults.endFee
  const decaySeconds = options.decaySeconds ?? defaults.decaySeconds
  const cap = MAX_START_FEE[launchpad]
  if (
    ![startFee, endFee, decaySeconds].every((v) => Number.isInteger(v) && v >= 0) ||
    startFee > cap ||
    endFee > startFee ||
    decaySeconds < 1 ||
    decaySeconds > 2 ** 32 - 1
  ) {
    throw new PrebuyError(
      'invalid_launch_fee',
      `Launch fees are pips (0..${cap.toLocaleString('en-US')} on ${launchpad}) with end fee <= start fee, and decay is a whole number of seconds >= 1.`,
    )
  }

  if (launchpad === 'zora' && (options.startFee !== undefined || options.endFee !== undefined || options.decaySeconds !== undefined)) {
    throw new PrebuyError('invalid_launch_fee', "Zora's launch fee is fixed by its coin hook (99% to 1% over 10 s): no fee options on zora.")
  }
  if (options.trendCoin && (launchpad !== 'zora' || options.creatorCoin || (options.paired ?? 'zora') !== 'zora')) {
    throw new PrebuyError('invalid_launch_pair', 'A trend coin is a Zora coin paired with ZORA.')
  }
  devnetPairOf(options)
  // Clanker v5 (clanker-devco/DOCS general/token-deployments.md): a buy tax of 1% to 10% (endFee), the sniper fee on
  // (startFee 99%) or off (startFee = endFee), over the documented 20 s only.
  if (launchpad === 'clanker_v5') {
    const { startFee: sniper, seconds } = CLANKER_V5_SNIPER
    if (endFee < 10_000 || endFee > 100_000 || (startFee !== sniper && startFee !== endFee) || decaySeconds !== seconds) {
      throw new PrebuyError(
        'invalid_launch_fee',
        `A Clanker v5 launch takes a buy tax (end fee) of 10,000 to 100,000 pips, a start fee of ${sniper.toLocaleString('en-US')} (sniper fee on) or equal to the tax (off), and ${seconds} decay seconds.`,
      )
    }
  }
  if (options.dynamicFee && launchpad !== 'clanker') {
    throw new PrebuyError('invalid_launch_fee', 'Only Clanker launches choose a dynamic-fee hook.')
  }
  if (options.mevModule !== undefined && launchpad !== 'clanker') {
    throw new PrebuyError('invalid_launch_fee', 'Only Clanker launches choose an MEV module.')
  }
  // Clanker v4.0's modules charge no fee and read no init data (ClankerMevBlockDelay.sol, ClankerSniperAuctionV0.sol):
  // fee options would be accepted and ignored.
  if ((options.mevModule ?? 'sniper_auction_v2') !== 'sniper_auction_v2' && (options.startFee ?? options.endFee ?? options.decaySeconds) !== undefined) {
    throw new PrebuyError('invalid_launch_fee', `The ${options.mevModule} module charges no sniper fee: no fee options with it.`)
  }
  if (options.rehype && launchpad !== 'doppler') throw new PrebuyError('invalid_launch_fee', 'Only Doppler launches choose a rehype pool.')
  const dopplerShapes = [options.rehype, options.staticFee !== undefined, options.swapRestrictor !== undefined].filter(Boolean).length
  if (dopplerShapes > 1) throw new PrebuyError('invalid_launch_fee', 'A Doppler launch is one of: rehype, a static fee, a swap restrictor.')
  if ((dopplerShapes > 0 || options.balanceLimit) && launchpad !== 'doppler') {
    throw new PrebuyError('invalid_launch_fee', 'Static fees, swap restrictors and balance limits are Doppler launch shapes.')
  }
  if (options.rehypeDeployment !== undefined && !options.rehype) throw new PrebuyError('invalid_launch_fee', 'A rehype deployment goes with a rehype pool.')
  if (options.staticFee !== undefined && !(Number.isInteger(options.staticFee) && options.staticFee >= 0 && options.staticFee < 1_000_000)) {
    throw new PrebuyError('invalid_launch_fee', 'A static LP fee is whole pips below 1,000,000.')
  }
  // The rehype hook caps its fee at 80% (RehypeTypes.sol MAX_SWAP_FEE), below the decay-multicurve hook's 90%.
  if (options.rehype && startFee > 800_000) throw new PrebuyError('invalid_launch_fee', "A rehype pool's fee is at most 800,000 pips (80%).")
  // SniperAuctionV2 refuses a decay longer than the hook's MAX_MEV_MODULE_DELAY, 120 s (_validateFeeConfig).
  if (launchpad === 'clanker' && decaySeconds > 120) {
    throw new PrebuyError('invalid_launch_fee', "A Clanker sniper fee decays within the MEV module's 120 s.")
  }
  if (options.devBuyWei !== undefined && (launchpad !== 'clanker' || options.devBuyWei <= 0n)) {
    throw new PrebuyError('invalid_dev_buy', 'A dev buy is a positive ETH amount, on Clanker only (its DevBuy extension).')
  }
  if (options.devBuyRecipient !== undefined && (launchpad !== 'clanker' || options.devBuyWei === undefined)) {
    throw new PrebuyError('invalid_dev_buy', 'A dev-buy recipient goes with a Clanker dev buy (devBuyWei).')
  }
  // The positions themselves are checked by the devnet locker as the real one does (reverting with its errors).
  if (options.positions !== undefined && launchpad !== 'clanker') {
    throw new PrebuyError('invalid_launch_positions', 'Only Clanker launches take LP locker positions.')
  }
  const salt = options.salt ?? (await pickSalt(options))
  const sender = options.sender ?? creator
  await impersonate(chain, sender, options.devBuyWei ?? 0n)
  return submitDevnetCall(chain, sender, launchCall(options, startFee, endFee, decaySeconds, salt))
}

const SUPPLY_ABI = parseAbi(['function TOKEN_SUPPLY() view returns (uint256)'])

const launchpadAddress = (o: Pick<LaunchTokenOptions, 'addresses' | 'launchpad'>): Address => {
  switch (o.launchpad) {
    case 'clanker':
      return o.addresses.clanker.factory
    case 'doppler':
      return o.addresses.doppler.airlock
    case 'zora':
      return o.addresses.zora.factory
    case 'clanker_v5':
      return o.addresses.clankerV5.factory
  }
}

/**
 * Where the launchpad will CREATE2 the token for this salt (the token's constructor arguments are part of it; Clanker
 * derives its CREATE2 salt from the token admin and the caller's salt, as ClankerDeployer).
 */
export async function predictTokenAddress(
  o: Pick<LaunchTokenOptions, 'chain' | 'addresses' | 'launchpad' | 'name' | 'symbol' | 'creator' | 'balanceLimit'>,
  salt: Hex,
): Promise<Address> {
  const from = launchpadAddress(o)
  const supply = await devnetPublicClient(o.chain).readContract({ address: from, abi: SUPPLY_ABI, functionName: 'TOKEN_SUPPLY' })
  // Zora coins carry the real coin getters (DevnetZoraCoin): another bytecode, another address.
  // A balance-limited Doppler asset is a DevnetDopplerERC20V1.
  const { abi, bytecode } = loadLaunchpadArtifact(o.launchpad === 'zora' ? 'DevnetZoraCoin' : o.balanceLimit ? 'DevnetDopplerERC20V1' : 'DevnetLaunchToken')
  const initCode = encodeDeployData({ abi, bytecode, args: [o.name, o.symbol, supply, from] })
  const create2Salt = o.launchpad === 'clanker' ? clankerTokenCreate2Salt(o.creator, salt) : salt
  return getContractAddress({ opcode: 'CREATE2', from, salt: create2Salt, bytecodeHash: keccak256(initCode) })
}

async function pickSalt(o: LaunchTokenOptions): Promise<Hex> {
  for (let i = 0; i < 256; i++) {
    const salt = bytesToHex(randomBytes(32))
    if (!o.tokenSide) return salt
    const token = await predictTokenAddress(o, salt)
    const paired = pairedAddress(o, devnetPairOf(o))
    const before = token.toLowerCase() < paired.toLowerCase()
    if (before === (o.tokenSide === 'currency0')) return salt
  }
  throw new PrebuyError('no_token_salt', `No salt puts the token on the ${o.tokenSide} side of its paired asset.`)
}

function launchCall(o: LaunchTokenOptions, startFee: number, endFee: number, decaySeconds: number, salt: Hex): DevnetCall {
  switch (o.launchpad) {
    case 'clanker': {
      const config = devnetClankerConfig(o, startFee, endFee, decaySeconds, salt)
      return {
        address: o.addresses.clanker.factory,
        abi: loadLaunchpadArtifact('DevnetClankerFactory').abi,
        functionName: 'deployToken',
        args: [config],
        ...(o.devBuyWei ? { value: o.devBuyWei } : {}),
      }
    }
    case 'doppler':
      return {
        address: o.addresses.doppler.airlock,
        abi: loadLaunchpadArtifact('DevnetDopplerAirlock').abi,
        functionName: 'create',
        args: [
          {
            name: o.name,
            symbol: o.symbol,
            creator: o.creator,
            startFee,
            endFee,
            durationSeconds: decaySeconds,
            salt,
            ...dopplerPool(o, startFee, endFee, decaySeconds),
            numeraire: pairedAddress(o, devnetPairOf(o)),
            maxBalanceLimit: o.balanceLimit?.maxBalance ?? 0n,
            balanceLimitEnd: o.balanceLimit?.endsAt ?? 0,
          },
        ],
      }
    case 'zora':
      if (o.trendCoin) {
        return { address: o.addresses.zora.factory, abi: loadLaunchpadArtifact('DevnetZoraFactory').abi, functionName: 'deployTrendCoin', args: [o.symbol] }
      }
      return {
        address: o.addresses.zora.factory,
        abi: loadLaunchpadArtifact('DevnetZoraFactory').abi,
        functionName: o.creatorCoin ? 'deployCreatorCoin' : 'deploy',
        args: [
          {
            payoutRecipient: o.creator,
            platformReferrer: zeroAddress,
            uri: '',
            name: o.name,
            symbol: o.symbol,
            currency: pairedAddress(o, devnetPairOf(o)),
            salt,
          },
        ],
      }
    case 'clanker_v5':
      // The devnet factory's own entry point (no v5 ABI is published): the sell tax is the buy tax.
      return {
        address: o.addresses.clankerV5.factory,
        abi: loadLaunchpadArtifact('DevnetClankerV5Factory').abi,
        functionName: 'deployToken',
        args: [
          {
            name: o.name,
            symbol: o.symbol,
            pairedToken: pairedAddress(o, devnetPairOf(o)),
            buyTax: endFee,
            sellTax: endFee,
            sniperFee: startFee > endFee,
            salt,
          },
        ],
      }
  }
}

/** The DevnetDopplerAirlock's pool fields: decay multicurve, or a DopplerHookInitializer pool with its plugin or none. */
/**
 * The Doppler airlock's `create` parameters of a plain decay pool (no hook initializer, plugin or balance limit) at the
 * devnet's default fees: for tests that send `create` themselves (inside a batch, a forged bundle).
 */
export function plainDopplerCreateParams(p: { name: string; symbol: string; creator: Address; numeraire: Address; salt: Hex }) {
  const d = DEVNET_LAUNCH_DEFAULTS.doppler
  return {
    ...p,
    startFee: d.startFee,
    endFee: d.endFee,
    durationSeconds: d.decaySeconds,
    hookInitializer: false,
    dopplerHook: zeroAddress,
    dopplerHookData: '0x' as Hex,
    lpFee: 0,
    maxBalanceLimit: 0n,
    balanceLimitEnd: 0,
  }
}

function dopplerPool(o: LaunchTokenOptions, startFee: number, endFee: number, decaySeconds: number) {
  const d = o.addresses.doppler
  if (o.rehype) {
    return {
      hookInitializer: true,
      dopplerHook: o.rehypeDeployment === 'fixed' ? d.rehypeHookFixed : d.rehypeHook,
      dopplerHookData: encodeAbiParameters(parseAbiParameters('uint24, uint24, uint32'), [startFee, endFee, decaySeconds]),
      lpFee: DEVNET_REHYPE_LP_FEE,
    }
  }
  if (o.swapRestrictor) {
    return {
      hookInitializer: true,
      dopplerHook: d.swapRestrictor,
      dopplerHookData: encodeAbiParameters(parseAbiParameters('address[], uint256'), [o.swapRestrictor.approved, o.swapRestrictor.maxAmount]),
      lpFee: DEVNET_REHYPE_LP_FEE,
    }
  }
  if (o.staticFee !== undefined) return { hookInitializer: true, dopplerHook: zeroAddress, dopplerHookData: '0x' as Hex, lpFee: o.staticFee }
  return { hookInitializer: false, dopplerHook: zeroAddress, dopplerHookData: '0x' as Hex, lpFee: 0 }
}

/** The devnet Clanker launch's one position: the whole pool supply from the starting tick to the last usable tick. */
export const DEVNET_CLANKER_POSITIONS: readonly ClankerPositionConfig[] = [
  {
    tickLower: DEVNET_LAUNCH_DEFAULTS.clanker.tickIfToken0IsClanker,
    tickUpper: maxUsableTick(DEVNET_LAUNCH_DEFAULTS.clanker.tickSpacing),
    bps: 10_000,
  },
]

/**
 * The real DeploymentConfig of a devnet Clanker launch: WETH-paired, the static hook (clankerFee = pairedFee = 1%) or
 * the dynamic one with Dynamic3, the devnet LP locker with the given positions and the creator as the one reward
 * participant, the SniperAuctionV2 fee config (or a v4.0 module, `mevModule`), and a DevBuy extension when `devBuyWei`
 * is set.
 */
export function devnetClankerConfig(
  o: Pick<
    LaunchTokenOptions,
    'chain' | 'addresses' | 'creator' | 'name' | 'symbol' | 'dynamicFee' | 'positions' | 'devBuyWei' | 'devBuyRecipient' | 'mevModule'
  >,
  startFee: number,
  endFee: number,
  decaySeconds: number,
  salt: Hex,
): ClankerDeploymentConfig {
  const d = DEVNET_LAUNCH_DEFAULTS.clanker
  const c = o.addresses.clanker
  const config = clankerDeploymentConfig({
    chainId: o.chain.chainId,
    token: { admin: o.creator, name: o.name, symbol: o.symbol, salt, context: 'prebuy devnet' },
    pool: {
      hook: o.dynamicFee ? c.dynamicHook : c.hook,
      pairedToken: o.chain.addresses.weth,
      tickIfToken0IsClanker: d.tickIfToken0IsClanker,
      tickSpacing: d.tickSpacing,
      fee: o.dynamicFee ? CLANKER_DYNAMIC3 : { kind: 'static', clankerFee: d.lpFee, pairedFee: d.lpFee },
    },
    locker: { address: c.locker, positions: o.positions ?? DEVNET_CLANKER_POSITIONS, rewards: [{ admin: o.creator, recipient: o.creator, bps: 10_000 }] },
    mevModule: { address: c.mevModule, startingFee: startFee, endingFee: endFee, secondsToDecay: decaySeconds },
    extensions: o.devBuyWei ? [clankerDevBuyExtension(c.devBuy, { recipient: o.devBuyRecipient ?? o.creator, wei: o.devBuyWei })] : [],
  })
  if ((o.mevModule ?? 'sniper_auction_v2') === 'sniper_auction_v2') return config
  // A v4.0 module ignores its init data: none is sent.
  return { ...config, mevModuleConfig: { mevModule: devnetClankerMevModuleAddress(c, o.mevModule), mevModuleData: '0x' } }
}

/** Decodes the launch with the production adapter, from the receipt's real log: the devnet proves the adapter. */
export async function decodeOwnLaunch(
  chain: ChainConfig,
  addresses: LaunchpadAddresses,
  launchpad: Launchpad,
  receipt: TransactionReceipt,
): Promise<DecodedLaunch> {
  const client = devnetPublicClient(chain)
  const adapter = createLaunchpadAdapters(devnetAdapterOptions(chain.addresses, addresses))[launchpad]
  const block = await client.getBlock({ blockHash: receipt.blockHash })
  const ctx = {
    client,
    txHash: receipt.transactionHash,
    blockNumber: receipt.blockNumber,
    blockHash: receipt.blockHash,
    blockTimestamp: Number(block.timestamp),
    txFrom: getAddress(receipt.from),
    txLogs: receipt.logs,
  }
  for (const log of receipt.logs) {
    if (log.address.toLowerCase() !== adapter.launchEvent.address.toLowerCase()) continue
    const launch = await adapter.decodeLaunch(log, { ...ctx, attribution: await readLaunchAttribution(client, receipt, log) })
    if (launch) return launch
  }
  throw new PrebuyError('launch_not_decoded', `The ${launchpad} launch transaction carries no launch event the adapter understands.`)
}
