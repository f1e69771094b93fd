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
