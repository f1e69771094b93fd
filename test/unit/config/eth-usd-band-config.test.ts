import { describe, expect, it } from 'vitest'
import { rpcChainConfigs } from '../../../src/config/rpc-chain-configs.ts'
import { rpcConfigLoader } from '../../support/rpc-config-file.ts'

const load = rpcConfigLoader('eth-usd-band-config')

describe('chains.<chain>.ethUsdBand', () => {
  it('absent: the code default (DEFAULT_ETH_USD_BAND); set: carried to the chain, a missing field defaulted', async () => {
    const plain = await load({})
    if (plain.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(rpcChainConfigs(plain.chains).base.ethUsdBand).toBeUndefined()
    const set = await load({ ethUsdBand: { bandBps: 50 } })
    if (set.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(rpcChainConfigs(set.chains).base.ethUsdBand).toEqual({ twapSeconds: 600, bandBps: 50 })
  })

  it('refuses a band of nothing, a window of nothing and unknown keys', async () => {
    await expect(load({ ethUsdBand: { bandBps: 0 } })).rejects.toThrow(/bandBps/)
    await expect(load({ ethUsdBand: { twapSeconds: 0 } })).rejects.toThrow(/twapSeconds/)
    await expect(load({ ethUsdBand: { window: 60 } })).rejects.toThrow(/window/)
  })
})
