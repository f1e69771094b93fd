import { getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { BASE_DEFAULT_ADDRESSES, baseChainConfigSchema, chainAddressesSchema, chainConfigSchema } from '../../src/chain/real-chains.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'

const someAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const fullAddresses = Object.fromEntries(Object.keys(chainAddressesSchema.shape).map((key, index) => [key, someAddress(index + 1)]))

describe('real chain configuration', () => {
  it('fills every real Base address from the defaults (the facts file), and an explicit address overrides its default', () => {
    const parsed = baseChainConfigSchema.parse({ rpcUrl: 'https://base.example/rpc', wsUrl: 'wss://base.example/ws', addresses: {} })
    expect(parsed.chainId).toBe(8453)
    expect(parsed.addresses).toEqual(BASE_DEFAULT_ADDRESSES)
    // The facts file's table (../shared/facts/base-today.md), written out once more so a typo in the constant fails here.
    expect(parsed.addresses).toEqual({
      stablecoin: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      weth: '0x4200000000000000000000000000000000000006',
      poolManager: '0x498581fF718922c3f8e6A244956aF099B2652b2b',
      stateView: '0xA3c0c9b65baD0b08107Aa264b0f3dB444b867A71',
      v4Quoter: '0x0d5e0F971ED27FBfF6c2837bf31316121532048D',
      positionManager: '0x7C5f5A4bBd8fD63184577525326123B519429bDc',
      universalRouter: '0x6fF5693b99212Da76ad316178A184AB56D299b43',
      permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
      entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
      accountFactory: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
      multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
      v3Factory: '0x33128a8fC17869897dcE68Ed026d694621f6FDfD',
      ethUsdPool: '0xd0b53D9277642d899DF5C87A3966A349A798F224',
    })
    const overridden = baseChainConfigSchema.parse({
      rpcUrl: 'https://base.example/rpc',
      wsUrl: 'wss://base.example/ws',
      addresses: { positionManager: someAddress(0xaa), accountFactory: someAddress(0xbb) },
    })
    expect(overridden.addresses.positionManager).toBe(getAddress(someAddress(0xaa)))
    expect(overridden.addresses.accountFactory).toBe(getAddress(someAddress(0xbb)))
    expect(overridden.addresses.poolManager).toBe(BASE_DEFAULT_ADDRESSES.poolManager)
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
