import { parseAbi } from 'viem'

/**
 * Uniswap v4-periphery StateView (src/lens/StateView.sol), the getters the indexer reads: a launched pool's price and
 * liquidity (detect-launch.ts) and the paired asset's price pools (paired-prices.ts). Pinned against the npm artifact
 * in test/unit/launchpads/uniswap-abi-drift.test.ts.
 */
export const STATE_VIEW = parseAbi([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 poolId) view returns (uint128)',
])
