import type { Address } from 'viem'

/** Real Base addresses (../shared/facts/launchpads.md, all marked confirmed there). */
export const BASE_POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b'
export const BASE_WETH: Address = '0x4200000000000000000000000000000000000006'
export const BASE_CLANKER_FACTORY: Address = '0xE85A59c628F7d27878ACeB4bf3b35733630083a9'
export const BASE_DOPPLER_AIRLOCK: Address = '0x660eAaEdEBc968f8f3694354FA8EC0b4c5Ba8D12'
export const BASE_ZORA_FACTORY: Address = '0x777777751622c0d3258f214F9DF38E35BF45baF3'
/**
 * Clanker v5 on Base: factory and hook (clanker-devco/DOCS references/core-contracts/v5.md; ../shared/facts/base-today.md).
 * The hook address's low 14 bits, 0x2ACC, are its v4 permissions (beforeInitialize, beforeAdd/RemoveLiquidity,
 * before/afterSwap, both swap deltas).
 */
export const BASE_CLANKER_V5_FACTORY: Address = '0x572e88D3cD7f23E4241EB6ceDD96667271bF09A0'
export const BASE_CLANKER_V5_HOOK: Address = '0x5E320eA6278107968C119942E57d876c5F922AcC'
/** Uniswap v4 V4Quoter on Base (Uniswap deployments; ../shared/facts/base-today.md). */
export const BASE_V4_QUOTER: Address = '0x0d5e0F971ED27FBfF6c2837bf31316121532048D'
