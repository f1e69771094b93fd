import { parseAbi } from 'viem'

const ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'event CoinCreatedV4(address indexed caller, address indexed payoutRecipient, address indexed platformReferrer, address currency, string uri, string name, string symbol, address coin, PoolKey poolKey, bytes32 poolKeyHash, string version)',
])

export const ZORA_COIN_CREATED_V4 = ABI.find((item) => item.type === 'event' && item.name === 'CoinCreatedV4')!

/** Devnet-only extension of the hook: the launch fee it was configured with (real Zora hooks have no such view). */
export const ZORA_DEVNET_HOOK_ABI = parseAbi([
  'function getLaunchFee(bytes32 poolId) view returns (uint32 startingTime, uint24 startFee, uint24 endFee, uint32 durationSeconds)',
])
