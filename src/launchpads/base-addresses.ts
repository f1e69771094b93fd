import type { Address } from 'viem'

/** Real Base addresses (../shared/facts/launchpads.md, all marked confirmed there). */
export const BASE_POOL_MANAGER: Address = '0x498581fF718922c3f8e6A244956aF099B2652b2b'
export const BASE_WETH: Address = '0x4200000000000000000000000000000000000006'
export const BASE_CLANKER_FACTORY: Address = '0xE85A59c628F7d27878ACeB4bf3b35733630083a9'
export const BASE_DOPPLER_AIRLOCK: Address = '0x660eAaEdEBc968f8f3694354FA8EC0b4c5Ba8D12'
export const BASE_ZORA_FACTORY: Address = '0x777777751622c0d3258f214F9DF38E35BF45baF3'
