import { type Address, getAddress } from 'viem'

/**
 * What a rehype Doppler hook divides its fee by: `feeAmount = feeBase * currentFee / denominator`
 * (whetstoneresearch/doppler src/dopplerHooks/RehypeDopplerHookInitializer.sol `_collectSwapFees`). The constant was
 * `MAX_SWAP_FEE = 0.8e6` from commit 9e1d24c "feat: update MAX_SWAP_FEE" (2026-03-09) until 1f1eadbf "fix: rehype fees"
 * (2026-07-22), which divides by `SWAP_FEE_DENOMINATOR = 1e6`: a hook built in that window takes 1.25x the fee it
 * announces (FeeScheduleSet, getFeeSchedule).
 */
export const REHYPE_BUGGY_FEE_DENOMINATOR = 800_000
export const REHYPE_FEE_DENOMINATOR = 1_000_000

/**
 * The four RehypeDopplerHookInitializer deployments on Base (deployments/8453.md of whetstoneresearch/doppler, each
 * with its commit; the denominator read in that commit's src/dopplerHooks/RehypeDopplerHookInitializer.sol).
 * doppler-sdk 1.0.30 names 0xBF41…d123 as Base's `rehypeDopplerHookInitializer` (dist/evm/index.cjs, Base addresses).
 */
export const BASE_REHYPE_HOOKS: readonly { address: Address; deployed: string; commit: string; feeDenominator: number }[] = [
  { address: '0xc918c6edb8e0b62b5b73b3f812249a986ba8066d', deployed: '2026-03-09', commit: '9e1d24c', feeDenominator: REHYPE_BUGGY_FEE_DENOMINATOR },
  { address: '0x6ab5ae3191c914de8437431091776fc90f314be4', deployed: '2026-03-11', commit: '2cd788c', feeDenominator: REHYPE_BUGGY_FEE_DENOMINATOR },
  { address: '0xBF4195ab0B03e1eB3345dd1e83BeD7650b1ed123', deployed: '2026-04-01', commit: '562feb3', feeDenominator: REHYPE_BUGGY_FEE_DENOMINATOR },
  { address: '0x9982538f41f2ae29ddb9d3d9307010052984fdbb', deployed: '2026-07-23', commit: 'c5e9f99c', feeDenominator: REHYPE_FEE_DENOMINATOR },
].map((h) => ({ ...h, address: getAddress(h.address) }))

/** doppler-sdk 1.0.30's Base rehype hook (one of the 0.8e6 ones). */
export const BASE_REHYPE_SDK_HOOK: Address = getAddress('0xBF4195ab0B03e1eB3345dd1e83BeD7650b1ed123')
/** The July 2026 deployment, built after the fix. */
export const BASE_REHYPE_FIXED_HOOK: Address = getAddress('0x9982538f41f2ae29ddb9d3d9307010052984fdbb')

/**
 * The denominator of the rehype hook at `address`. A hook not in the table divides by 1e6: a plugin must be enabled on
 * the DopplerHookInitializer by the Airlock's owner, so an unlisted one on Base is a deployment newer than the file
 * (built from the fixed source). The real contract has no getter for it (a file-level constant).
 */
export function rehypeFeeDenominator(address: Address): number {
  return BASE_REHYPE_HOOKS.find((h) => h.address.toLowerCase() === address.toLowerCase())?.feeDenominator ?? REHYPE_FEE_DENOMINATOR
}
