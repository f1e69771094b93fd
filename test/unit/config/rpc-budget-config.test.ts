import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { describeConfig, loadConfig } from '../../../src/config/index.ts'
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
  dir = await mkdtemp(join(tmpdir(), 'prebuy-rpc-budget-config-'))
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

describe('the RPC budget keys of a real chain', () => {
  it('readRpcUrl defaults to the chain rpcUrl; getLogsMaxBlocks is left to the code default', async () => {
    const config = await load({})
    if (config.chains.mode !== 'rpc') throw new Error('unreachable')
    const chains = rpcChainConfigs(config.chains)
    expect(chains.base.readRpcUrl).toBe('https://base.example/key')
    expect(chains.second_chain.readRpcUrl).toBe('http://second.example')
    expect(chains.base.getLogsMaxBlocks).toBeUndefined()
  })

  it('keeps a configured read URL and log range, and masks the URL in the printable view', async () => {
    const config = await load({ readRpcUrl: 'https://reads.example/secret-key', getLogsMaxBlocks: 500 })
    if (config.chains.mode !== 'rpc') throw new Error('unreachable')
    const chains = rpcChainConfigs(config.chains)
    expect(chains.base).toMatchObject({ rpcUrl: 'https://base.example/key', readRpcUrl: 'https://reads.example/secret-key', getLogsMaxBlocks: 500 })
    expect(JSON.stringify(describeConfig(config))).not.toContain('secret-key')
  })

  it.each([
    [{ readRpcUrl: 'ws://reads.example' }, 'config error: chains.base.readRpcUrl: expected an http or https URL (from config.json)'],
    [{ readRpcUrl: 'not a url' }, 'config error: chains.base.readRpcUrl: expected an http or https URL (from config.json)'],
    [{ getLogsMaxBlocks: 0 }, 'config error: chains.base.getLogsMaxBlocks: expected an integer from 1 to 1000000 (from config.json)'],
  ])('refuses %j at validation', async (base, message) => {
    await expect(load(base)).rejects.toThrow(message)
  })
})
