import { describe, expect, it } from 'vitest'
import { BASE_DEFAULT_ADDRESSES, baseChainConfigSchema, chainAddressesSchema, chainConfigSchema } from '../../src/chain/real-chains.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'

const someAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const fullAddresses = Object.fromEntries(Object.keys(chainAddressesSchema.shape).map((key, index) => [key, someAddress(index + 1)]))

describe('real chain configuration', () => {
  it('fills real Base defaults from the facts and requires what the facts do not give', () => {
    const parsed = baseChainConfigSchema.parse({
      rpcUrl: 'https://base.example/rpc',
      wsUrl: 'wss://base.example/ws',
      addresses: { positionManager: someAddress(0xaa), accountFactory: someAddress(0xbb) },
    })
    expect(parsed.chainId).toBe(8453)
    expect(parsed.addresses.stablecoin).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
    expect(parsed.addresses.weth).toBe('0x4200000000000000000000000000000000000006')
    expect(parsed.addresses.poolManager).toBe(BASE_DEFAULT_ADDRESSES.poolManager)
    expect(parsed.addresses.universalRouter).toBe('0x6fF5693b99212Da76ad316178A184AB56D299b43')
    expect(parsed.addresses.entryPoint).toBe('0x0000000071727De22E5E9d8BAf0edAc6f37da032')
    expect(parsed.addresses.ethUsdPool).toBeUndefined()

    const missing = baseChainConfigSchema.safeParse({ rpcUrl: 'https://base.example/rpc', wsUrl: 'wss://base.example/ws', addresses: {} })
    expect(missing.success).toBe(false)
    expect(missing.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['addresses.accountFactory', 'addresses.positionManager'])
  })

  it('checksums addresses and rejects malformed ones, wrong URL schemes and a wrong Base chain id', () => {
    const parsed = chainConfigSchema.parse({
      rpcUrl: 'http://127.0.0.1:8545',
      wsUrl: 'ws://127.0.0.1:8545',
      chainId: 10,
      addresses: { ...fullAddresses, weth: '0x4200000000000000000000000000000000000006'.toLowerCase() },
    })
    expect(parsed.addresses.weth).toBe('0x4200000000000000000000000000000000000006')
    const bad = chainConfigSchema.safeParse({ rpcUrl: 'ws://x', wsUrl: 'http://x', chainId: 0, addresses: { ...fullAddresses, weth: '0x1234' } })
    expect(bad.error?.issues.map((issue) => issue.path.join('.')).sort()).toEqual(['addresses.weth', 'chainId', 'rpcUrl', 'wsUrl'])
    expect(
      baseChainConfigSchema.safeParse({
        rpcUrl: 'https://x',
        wsUrl: 'wss://x',
        chainId: 1,
        addresses: { positionManager: someAddress(1), accountFactory: someAddress(2) },
      }).success,
    ).toBe(false)
  })

  it('builds a viem chain whose multicall address comes from the config', () => {
    const config: ChainConfig = {
      key: 'second_chain',
      chainId: 7777,
      rpcUrl: 'http://127.0.0.1:1',
      wsUrl: 'ws://127.0.0.1:1',
      addresses: chainAddressesSchema.parse(fullAddresses),
    }
    const chain = chainFromConfig(config)
    expect(chain.id).toBe(7777)
    expect(chain.contracts?.multicall3?.address).toBe(config.addresses.multicall3)
    expect(chain.rpcUrls.default.webSocket).toEqual(['ws://127.0.0.1:1'])
  })
})
