import { parseAbi } from 'viem'

/**
 * Uniswap v4-periphery V4Quoter (src/lens/V4Quoter.sol, IV4Quoter.QuoteExactSingleParams): the quote of a real swap
 * through the pool's real hook, reverted and decoded inside the quoter. Non-view, called with eth_call.
 */
export const V4_QUOTER_ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'struct QuoteExactSingleParams { PoolKey poolKey; bool zeroForOne; uint128 exactAmount; bytes hookData; }',
  'function quoteExactInputSingle(QuoteExactSingleParams params) returns (uint256 amountOut, uint256 gasEstimate)',
])

/** v4-core's PoolManager reads any storage slot (StateLibrary reads pools this way). */
export const EXTSLOAD_ABI = parseAbi(['function extsload(bytes32 startSlot, uint256 nSlots) view returns (bytes32[])'])
