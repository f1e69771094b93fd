import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/index.ts'
import { rpcChainConfigs } from '../../../src/config/rpc-chain-configs.ts'

const PASS = { PREBUY_PASSPHRASE: 'correct horse battery' }
const NAMES = [
  'stablecoin',
  'weth',
  'poolManager',
  'stateView',
  'v4Quoter',
  'positionManager',
  'universalRouter',
  'permit2',
  'entryPoint',
  'accountFactory',
  'multicall3',
  'v3Factory',
  'ethUsdPool',
]
const ADDRESSES = Object.fromEntries(NAMES.map((k, i) => [k, `0x${(i + 1).toString(16).padStart(40, '0')}`]))
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-eth-usd-band-config-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const load = async (base: Record<string, unknown>) => {
  await writeFile(
    join(dir, 'config.json'),
    JSON.stringify({
      chains: {
        mode: 'rpc',
        base: { rpcUrl: 'https://base.example/key', wsUrl: 'wss://base.example', addresses: ADDRESSES, ...base },
        second_chain: { chainId: 7777, rpcUrl: 'http://second.example', wsUrl: 'wss://second.example', addresses: ADDRESSES },
      },
      feeRecipient: '0x1111111111111111111111111111111111111111',
    }),
  )
  return loadConfig({ flags: { dataDir: dir }, env: PASS })
}

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
