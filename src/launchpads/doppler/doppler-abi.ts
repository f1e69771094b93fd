import { parseAbi } from 'viem'

export const DOPPLER_CREATE = parseAbi(['event Create(address asset, address indexed numeraire, address initializer, address poolOrHook)'])[0]

/** The real Airlock's public `getAssetData` mapping getter (the devnet Airlock keeps the same layout). */
export const DOPPLER_AIRLOCK_ABI = parseAbi([
  'function getAssetData(address asset) view returns (address numeraire, address timelock, address governance, address liquidityMigrator, address poolInitializer, address pool, address migrationPool, uint256 numTokensToSell, uint256 totalSupply, address integrator)',
])

export const DOPPLER_HOOK_ABI = parseAbi([
  'event FeeScheduleSet(bytes32 indexed poolId, uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds)',
  // The decay-multicurve hook's public mapping getter: five values (legacy/src/initializers/DecayMulticurveInitializerHook.sol).
  'function getFeeScheduleOf(bytes32 poolId) view returns (uint32 startingTime, uint24 startFee, uint24 endFee, uint24 lastFee, uint32 durationSeconds)',
])

/**
 * The rehype Doppler hook's schedule getter (src/dopplerHooks/RehypeDopplerHookInitializer.sol `getFeeSchedule`, the
 * same five-field FeeSchedule struct of src/types/RehypeTypes.sol); its FeeScheduleSet has DOPPLER_HOOK_ABI's layout.
 */
export const DOPPLER_REHYPE_ABI = parseAbi([
  'function getFeeSchedule(bytes32 poolId) view returns (uint32 startingTime, uint24 startFee, uint24 endFee, uint24 lastFee, uint32 durationSeconds)',
])

/**
 * DopplerHookInitializer's public `getState(asset)` getter (src/initializers/DopplerHookInitializer.sol, the PoolState
 * struct; a public getter leaves out its two arrays, beneficiaries and adjustedCurves): the plugin is `dopplerHook`.
 */
export const DOPPLER_HOOK_INITIALIZER_ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function getState(address asset) view returns (address numeraire, uint256 totalTokensOnBondingCurve, address dopplerHook, bytes graduationDopplerHookCalldata, uint8 status, PoolKey poolKey, int24 farTick)',
])

/** SwapRestrictorDopplerHook's getters (src/dopplerHooks/SwapRestrictorDopplerHook.sol): answering them identifies it. */
export const DOPPLER_SWAP_RESTRICTOR_ABI = parseAbi([
  'function isAssetToken0(bytes32 poolId) view returns (bool)',
  'function amountLeftOf(bytes32 poolId, address sender) view returns (uint256)',
])

/** The scheduled multicurve hook's start gate (legacy/src/initializers/UniswapV4ScheduledMulticurveInitializerHook.sol). */
export const DOPPLER_SCHEDULED_HOOK_ABI = parseAbi(['function startingTimeOf(bytes32 poolId) view returns (uint256)'])

/** DopplerERC20V1's balance limit getters (src/tokens/DopplerERC20V1.sol). */
export const DOPPLER_ERC20_V1_ABI = parseAbi([
  'function isBalanceLimitActive() view returns (bool)',
  'function balanceLimitEnd() view returns (uint48)',
  'function maxBalanceLimit() view returns (uint256)',
])
