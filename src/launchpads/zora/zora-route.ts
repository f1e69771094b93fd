import type { Address } from 'viem'
import type { PoolKey } from '../launchpad-adapter.ts'

/** ZORA on Base (../shared/facts/launchpads.md, "Zora coins v4"; ourzora/zora-protocol docs/pages/coins/contracts/creating-a-coin.mdx). */
export const BASE_ZORA_TOKEN: Address = '0x1111111111166b7FE7bd91427724B487980aFc69'

/**
 * How the service buys ZORA and prices it: one v4 pool between ZORA and native ETH or WETH, with a static fee. Zora
 * coins paired with ZORA (every creator coin, some content coins) are bought stablecoin -> WETH (v3) -> [ETH] -> ZORA
 * (this pool) -> coin, and priced as coin/ZORA x ZORA/ETH x ETH/USD. On devnet it is deployed with the launchpads; on
 * Base the operator configures it (`launches.zoraEthPool`): without it ZORA-paired coins are reported unsupported.
 */
export interface ZoraRoute {
  zora: Address
  ethPool: PoolKey
}
