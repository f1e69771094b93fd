import { parseAbi } from 'viem'

export const CLANKER_TOKEN_CREATED = parseAbi([
  'event TokenCreated(address msgSender, address indexed tokenAddress, address indexed tokenAdmin, string tokenImage, string tokenName, string tokenSymbol, string tokenMetadata, string tokenContext, int24 startingTick, address poolHook, bytes32 poolId, address pairedToken, address locker, address mevModule, uint256 extensionsSupply, address[] extensions)',
])[0]

export const CLANKER_FEE_ABI = parseAbi([
  'event FeeConfigSet(bytes32 poolId, uint24 startingFee, uint24 endingFee, uint256 secondsToDecay)',
  'function feeConfig(bytes32 poolId) view returns (uint24 startingFee, uint24 endingFee, uint256 secondsToDecay)',
  'function pairedFee(bytes32 poolId) view returns (uint24)',
])

/**
 * ClankerHookDynamicFeeV2's per-pool configuration (clanker-devco/v4-contracts src/hooks/interfaces/
 * IClankerHookDynamicFee.sol PoolDynamicConfigVars, seven fields; PoolId is bytes32 in the ABI). It has no pairedFee.
 */
export const CLANKER_DYNAMIC_FEE_ABI = parseAbi([
  'struct PoolDynamicConfigVars { uint24 baseFee; uint24 maxLpFee; uint256 referenceTickFilterPeriod; uint256 resetPeriod; int24 resetTickFilter; uint256 feeControlNumerator; uint24 decayFilterBps; }',
  'function poolConfigVars(bytes32 poolId) view returns (PoolDynamicConfigVars)',
])

/**
 * ClankerSniperAuctionV2's per-pool state (clanker-devco/v4-contracts src/mev-modules/ClankerSniperAuctionV2.sol and
 * interfaces/IClankerSniperAuctionV0.sol; PoolId is bytes32 in the ABI) and the hook's pool creation time
 * (src/hooks/ClankerHookV2.sol), from which the module stops after MAX_MEV_MODULE_DELAY.
 */
export const CLANKER_AUCTION_ABI = parseAbi([
  'function nextAuctionBlock(bytes32 poolId) view returns (uint256)',
  'function round(bytes32 poolId) view returns (uint256)',
  'function poolDecayStartTime(bytes32 poolId) view returns (uint256)',
  'function maxRounds() view returns (uint256)',
  'function blocksBetweenAuction() view returns (uint256)',
  'function poolCreationTimestamp(bytes32 poolId) view returns (uint256)',
  'function MAX_MEV_MODULE_DELAY() view returns (uint256)',
])

/**
 * Clanker v4.0's MEV modules, which have no `feeConfig` (clanker-devco/v4-contracts at b004c2e,
 * src/mev-modules/ClankerMevBlockDelay.sol, ClankerMevTimeDelay.sol, ClankerSniperAuctionV0.sol): the delay modules'
 * public `poolUnlockTime(poolId)` (a block number for BlockDelay, a unix time for TimeDelay) and their constructor's
 * `blockDelay` / `timeDelay`; SniperAuctionV0's getters are CLANKER_AUCTION_ABI's `nextAuctionBlock`, `round`,
 * `maxRounds`, `blocksBetweenAuction` (it has no `poolDecayStartTime`).
 */
export const CLANKER_V40_MODULE_ABI = parseAbi([
  'function poolUnlockTime(bytes32 poolId) view returns (uint256)',
  'function blockDelay() view returns (uint256)',
  'function timeDelay() view returns (uint256)',
])
