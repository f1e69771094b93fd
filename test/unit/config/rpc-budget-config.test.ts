import { describe, expect, it } from 'vitest'
import { describeConfig } from '../../../src/config/index.ts'
import { rpcChainConfigs } from '../../../src/config/rpc-chain-configs.ts'
import { rpcConfigLoader } from '../../support/rpc-config-file.ts'

const load = rpcConfigLoader('rpc-budget-config')

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
