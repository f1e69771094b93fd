import { type Address, encodeAbiParameters, type Hex, keccak256, parseAbi, parseAbiParameters, zeroAddress } from 'viem'
import type { PoolKey } from '../launchpad-adapter.ts'
import type { ClankerPositionConfig } from './clanker-launch-pool.ts'

/**
 * The Clanker v4 factory's `deployToken(DeploymentConfig)` as the real one declares it (clanker-devco/v4-contracts
 * src/interfaces/IClanker.sol: the structs in their field order); the devnet factory takes the same ABI.
 */
export const CLANKER_DEPLOY_ABI = parseAbi([
  'struct TokenConfig { address tokenAdmin; string name; string symbol; bytes32 salt; string image; string metadata; string context; uint256 originatingChainId; }',
  'struct PoolConfig { address hook; address pairedToken; int24 tickIfToken0IsClanker; int24 tickSpacing; bytes poolData; }',
  'struct LockerConfig { address locker; address[] rewardAdmins; address[] rewardRecipients; uint16[] rewardBps; int24[] tickLower; int24[] tickUpper; uint16[] positionBps; bytes lockerData; }',
  'struct MevModuleConfig { address mevModule; bytes mevModuleData; }',
  'struct ExtensionConfig { address extension; uint256 msgValue; uint16 extensionBps; bytes extensionData; }',
  'struct DeploymentConfig { TokenConfig tokenConfig; PoolConfig poolConfig; LockerConfig lockerConfig; MevModuleConfig mevModuleConfig; ExtensionConfig[] extensionConfigs; }',
  'struct DeploymentInfo { address token; address hook; address locker; address[] extensions; }',
  'function deployToken(DeploymentConfig deploymentConfig) payable returns (address tokenAddress)',
  'function tokenDeploymentInfo(address token) view returns (DeploymentInfo)',
  'function deploymentInfoForToken(address token) view returns (address token, address hook, address locker)',
])

export interface ClankerDeploymentConfig {
  tokenConfig: {
    tokenAdmin: Address
    name: string
    symbol: string
    salt: Hex
    image: string
    metadata: string
    context: string
    originatingChainId: bigint
  }
  poolConfig: { hook: Address; pairedToken: Address; tickIfToken0IsClanker: number; tickSpacing: number; poolData: Hex }
  lockerConfig: {
    locker: Address
    rewardAdmins: readonly Address[]
    rewardRecipients: readonly Address[]
    rewardBps: readonly number[]
    tickLower: readonly number[]
    tickUpper: readonly number[]
    positionBps: readonly number[]
    lockerData: Hex
  }
  mevModuleConfig: { mevModule: Address; mevModuleData: Hex }
  extensionConfigs: readonly ClankerExtensionConfig[]
}

export interface ClankerExtensionConfig {
  extension: Address
  /** Wei sent to the extension; the configs' msgValues add up to the deployment's msg.value. */
  msgValue: bigint
  /** Basis points of the supply the extension takes (0 for a dev buy, which the real DevBuy requires). */
  extensionBps: number
  extensionData: Hex
}

/** ClankerHookStaticFeeV2's PoolStaticConfigVars (pips), or ClankerHookDynamicFeeV2's PoolDynamicConfigVars. */
export type ClankerPoolFee =
  | { kind: 'static'; clankerFee: number; pairedFee: number }
  | {
      kind: 'dynamic'
      baseFee: number
      maxLpFee: number
      referenceTickFilterPeriod: bigint
      resetPeriod: bigint
      resetTickFilter: number
      feeControlNumerator: bigint
      decayFilterBps: number
    }

/** clanker-sdk's `Dynamic3` (FEE_CONFIGS in its dist/index.js, bps converted to pips): 1% base up to 3%. */
export const CLANKER_DYNAMIC3: ClankerPoolFee = {
  kind: 'dynamic',
  baseFee: 10_000,
  maxLpFee: 30_000,
  referenceTickFilterPeriod: 30n,
  resetPeriod: 120n,
  resetTickFilter: 200,
  feeControlNumerator: 250_000_000n,
  decayFilterBps: 7_500,
}

/** One LP-fee reward participant of the locker (ClankerLpLockerFeeConversion: 1 to 7, bps adding up to 10,000). */
export interface ClankerReward {
  admin: Address
  recipient: Address
  bps: number
  /** IClankerLpLockerFeeConversion.FeeIn: which token the participant's fees are converted to. Default 'both'. */
  feeIn?: 'both' | 'paired' | 'clanker'
}

export interface ClankerDeploymentInput {
  /** TokenConfig.originatingChainId: the factory refuses any other chain than its own (OnlyOriginatingChain). */
  chainId: number
  token: { admin: Address; name: string; symbol: string; salt: Hex; image?: string; metadata?: string; context?: string }
  pool: { hook: Address; pairedToken: Address; tickIfToken0IsClanker: number; tickSpacing: number; fee: ClankerPoolFee }
  locker: { address: Address; positions: readonly ClankerPositionConfig[]; rewards: readonly ClankerReward[] }
  /** The MEV module and its init data (SniperAuctionV2 / MevDescendingFees FeeConfig, pips and seconds). */
  mevModule: { address: Address; startingFee: number; endingFee: number; secondsToDecay: number }
  extensions?: readonly ClankerExtensionConfig[]
}

const FEE_IN = { both: 0, paired: 1, clanker: 2 } as const

/**
 * The real DeploymentConfig from readable parts, with each module's data encoded as the real module decodes it:
 * poolData = IClankerHookV2.PoolInitializationData{extension, extensionData, feeData} (no pool extension) with feeData the
 * static or dynamic hook's config vars (src/hooks/ClankerHookStaticFeeV2.sol, ClankerHookDynamicFeeV2.sol
 * `_initializeFeeData`); lockerData = IClankerLpLockerFeeConversion.LpFeeConversionInfo{FeeIn[]}, one per reward;
 * mevModuleData = IClankerMevDescendingFees.FeeConfig (src/mev-modules/ClankerSniperAuctionV2.sol `initialize`).
 */
export function clankerDeploymentConfig(input: ClankerDeploymentInput): ClankerDeploymentConfig {
  const { token, pool, locker, mevModule } = input
  return {
    tokenConfig: {
      tokenAdmin: token.admin,
      name: token.name,
      symbol: token.symbol,
      salt: token.salt,
      image: token.image ?? '',
      metadata: token.metadata ?? '',
      context: token.context ?? '',
      originatingChainId: BigInt(input.chainId),
    },
    poolConfig: {
      hook: pool.hook,
      pairedToken: pool.pairedToken,
      tickIfToken0IsClanker: pool.tickIfToken0IsClanker,
      tickSpacing: pool.tickSpacing,
      poolData: encodeAbiParameters(parseAbiParameters('(address extension, bytes extensionData, bytes feeData)'), [
        { extension: zeroAddress, extensionData: '0x', feeData: encodePoolFee(pool.fee) },
      ]),
    },
    lockerConfig: {
      locker: locker.address,
      rewardAdmins: locker.rewards.map((r) => r.admin),
      rewardRecipients: locker.rewards.map((r) => r.recipient),
      rewardBps: locker.rewards.map((r) => r.bps),
      tickLower: locker.positions.map((p) => p.tickLower),
      tickUpper: locker.positions.map((p) => p.tickUpper),
      positionBps: locker.positions.map((p) => p.bps),
      lockerData: encodeAbiParameters(parseAbiParameters('(uint8[] feePreference)'), [{ feePreference: locker.rewards.map((r) => FEE_IN[r.feeIn ?? 'both']) }]),
    },
    mevModuleConfig: {
      mevModule: mevModule.address,
      mevModuleData: encodeAbiParameters(parseAbiParameters('(uint24 startingFee, uint24 endingFee, uint256 secondsToDecay)'), [
        { startingFee: mevModule.startingFee, endingFee: mevModule.endingFee, secondsToDecay: BigInt(mevModule.secondsToDecay) },
      ]),
    },
    extensionConfigs: input.extensions ?? [],
  }
}

function encodePoolFee(fee: ClankerPoolFee): Hex {
  if (fee.kind === 'static') {
    return encodeAbiParameters(parseAbiParameters('(uint24 clankerFee, uint24 pairedFee)'), [{ clankerFee: fee.clankerFee, pairedFee: fee.pairedFee }])
  }
  const { kind: _, ...vars } = fee
  return encodeAbiParameters(
    parseAbiParameters(
      '(uint24 baseFee, uint24 maxLpFee, uint256 referenceTickFilterPeriod, uint256 resetPeriod, int24 resetTickFilter, uint256 feeControlNumerator, uint24 decayFilterBps)',
    ),
    [vars],
  )
}

const NO_POOL_KEY: PoolKey = { currency0: zeroAddress, currency1: zeroAddress, fee: 0, tickSpacing: 0, hooks: zeroAddress }

/**
 * A dev buy of `wei` ETH for `recipient` through Clanker's DevBuy extension (ClankerUniv4EthDevBuy): msgValue = wei,
 * no supply share (the extension refuses one), extensionData = Univ4EthDevBuyExtensionData{pairedTokenPoolKey,
 * pairedTokenAmountOutMinimum, recipient} (src/extensions/interfaces/IClankerUniv4EthDevBuy.sol). The pool key and
 * minimum only matter for a non-WETH paired token (the WETH -> paired hop); for WETH they are left empty.
 */
export function clankerDevBuyExtension(
  devBuy: Address,
  o: { recipient: Address; wei: bigint; pairedTokenPoolKey?: PoolKey; pairedTokenAmountOutMinimum?: bigint },
): ClankerExtensionConfig {
  return {
    extension: devBuy,
    msgValue: o.wei,
    extensionBps: 0,
    extensionData: encodeAbiParameters(
      parseAbiParameters(
        '((address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) pairedTokenPoolKey, uint128 pairedTokenAmountOutMinimum, address recipient)',
      ),
      [
        {
          pairedTokenPoolKey: o.pairedTokenPoolKey ?? NO_POOL_KEY,
          pairedTokenAmountOutMinimum: o.pairedTokenAmountOutMinimum ?? 0n,
          recipient: o.recipient,
        },
      ],
    ),
  }
}

/** The msg.value a deployment must carry: the extensions' msgValues summed (Clanker._prepareExtensions). */
export const clankerDeploymentValue = (config: Pick<ClankerDeploymentConfig, 'extensionConfigs'>): bigint =>
  config.extensionConfigs.reduce((sum, e) => sum + e.msgValue, 0n)

/** The CREATE2 salt the factory deploys the token with: keccak256(abi.encode(tokenAdmin, salt)) (src/utils/ClankerDeployer.sol). */
export const clankerTokenCreate2Salt = (tokenAdmin: Address, salt: Hex): Hex =>
  keccak256(encodeAbiParameters(parseAbiParameters('address, bytes32'), [tokenAdmin, salt]))
