import { describe, expect, it } from 'vitest'
import { BASE_DEFAULT_ADDRESSES, chainAddressesSchema } from '../../../src/chain/real-chains.ts'
import { chainFromConfig } from '../../../src/chain/clients.ts'
import type { ChainConfig } from '../../../src/chain/chain-keys.ts'

const someAddress = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
const fullAddresses = Object.fromEntries(Object.keys(chainAddressesSchema.shape).map((key, index) => [key, someAddress(index + 1)]))

describe('real chain configuration', () => {
  it('holds every real Base address of the facts file', () => {
    // The facts file's table (../shared/facts/base-today.md), written out once more so a typo in the constant fails here.
    expect(BASE_DEFAULT_ADDRESSES).toEqual({
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
