import { parseAbi } from 'viem'

const ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'event CoinCreatedV4(address indexed caller, address indexed payoutRecipient, address indexed platformReferrer, address currency, string uri, string name, string symbol, address coin, PoolKey poolKey, bytes32 poolKeyHash, string version)',
  'event CreatorCoinCreated(address indexed caller, address indexed payoutRecipient, address indexed platformReferrer, address currency, string uri, string name, string symbol, address coin, PoolKey poolKey, bytes32 poolKeyHash, string version)',
])

/**
 * The coin getters a coin paired with it is routed through (ourzora/zora-protocol packages/coins/src/interfaces/
 * ICoin.sol: `getPoolKey()` returns the whole PoolKey, `currency()` the asset the coin trades against).
 */
export const ZORA_COIN_ABI = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function getPoolKey() view returns (PoolKey)',
  'function currency() view returns (address)',
])

/** A content coin (ourzora/zora-protocol packages/coins/src/interfaces/IZoraFactory.sol). */
export const ZORA_COIN_CREATED_V4 = ABI.find((item) => item.type === 'event' && item.name === 'CoinCreatedV4')!
/** A creator coin: the same fields under its own name (ZoraFactoryImpl._createAndInitializeCreatorCoin emits only this). */
export const ZORA_CREATOR_COIN_CREATED = ABI.find((item) => item.type === 'event' && item.name === 'CreatorCoinCreated')!
/**
 * A trend coin (2.6.0): permissionless, named by its ticker, paired with ZORA (packages/coins/src/interfaces/
 * IZoraFactory.sol `TrendCoinCreated`; ZoraFactoryImpl._createAndInitializeTrendCoin emits only this for them).
 */
export const ZORA_TREND_COIN_CREATED = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'event TrendCoinCreated(address indexed caller, string symbol, address coin, PoolKey poolKey, bytes32 poolKeyHash, bytes poolConfig, string version)',
])[0]

/** Zora's trend-coin fee once the launch fee is over (packages/coins/src/libs/CoinConstants.sol TREND_LP_FEE_V4). */
export const ZORA_TREND_LP_FEE = 100
