import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import { loadConfig, type PrebuyConfig } from '../../src/config/index.ts'

const PASS = { PREBUY_PASSPHRASE: 'correct horse battery' }
/** Every address a real chain's configuration names. */
export const CHAIN_ADDRESS_NAMES = [
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
/** Distinct made-up addresses for every address a real chain's configuration names. */
export const FAKE_ADDRESSES = Object.fromEntries(CHAIN_ADDRESS_NAMES.map((k, i) => [k, `0x${(i + 1).toString(16).padStart(40, '0')}`]))

/**
 * An rpc-mode config.json in a fresh data dir per test, loaded as the daemon loads it: `load(base)` adds `base`'s
 * fields to Base's chain section (both chains get every address).
 */
export function rpcConfigLoader(label: string): (base: Record<string, unknown>) => Promise<PrebuyConfig> {
  let dir = ''
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), `prebuy-${label}-`))
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })
  return async (base) => {
    await writeFile(
      join(dir, 'config.json'),
      JSON.stringify({
        chains: {
          mode: 'rpc',
          base: { rpcUrl: 'https://base.example/key', wsUrl: 'wss://base.example', addresses: FAKE_ADDRESSES, ...base },
          second_chain: { chainId: 7777, rpcUrl: 'http://second.example', wsUrl: 'wss://second.example', addresses: FAKE_ADDRESSES },
        },
        feeRecipient: '0x1111111111111111111111111111111111111111',
      }),
    )
    return loadConfig({ flags: { dataDir: dir }, env: PASS })
  }
}
