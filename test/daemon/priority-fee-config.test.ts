import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, describeConfig, loadConfig } from '../../src/config/index.ts'
import { toPriorityFeePolicy } from '../../src/config/priority-fee-config.ts'

const PASS = { PREBUY_PASSPHRASE: 'correct horse battery' }
let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-priority-fee-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const load = async (priorityFee: unknown) => {
  await writeFile(join(dir, 'config.json'), JSON.stringify({ wallet: { priorityFee } }))
  return loadConfig({ flags: { dataDir: dir }, env: PASS })
}
const errorOf = async (priorityFee: unknown): Promise<string> => {
  try {
    await load(priorityFee)
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  throw new Error('expected a config error')
}

describe('wallet.priorityFee', () => {
  it('defaults to the 75th percentile of 20 blocks, 0.005 ETH per transaction, 3x for 25 launch blocks', async () => {
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    // Printable as configured (the daemon's start line and status serialise it).
    expect(JSON.parse(JSON.stringify(describeConfig(config))).wallet.priorityFee).toEqual({ maxEthPerTx: '0.005', launchMultiplier: 3, launchBlocks: 25 })
    expect(toPriorityFeePolicy(config.wallet.priorityFee)).toEqual({
      tip: { kind: 'percentile', percentile: 75, blocks: 20 },
      maxTipWeiPerTx: 5_000_000_000_000_000n,
      launch: { multiplier: 3, blocks: 25 },
    })
  })

  it('takes a fixed tip in gwei and a percentile with its window', async () => {
    expect(toPriorityFeePolicy((await load({ fixedGwei: '0.015', maxEthPerTx: '0.001', launchMultiplier: 1.5, launchBlocks: 10 })).wallet.priorityFee)).toEqual(
      {
        tip: { kind: 'fixed', tipWei: 15_000_000n },
        maxTipWeiPerTx: 1_000_000_000_000_000n,
        launch: { multiplier: 1.5, blocks: 10 },
      },
    )
    expect(toPriorityFeePolicy((await load({ percentile: 90, blocks: 5 })).wallet.priorityFee).tip).toEqual({ kind: 'percentile', percentile: 90, blocks: 5 })
  })

  const cases: [string, unknown, string][] = [
    ['both sources', { fixedGwei: '1', percentile: 50 }, 'wallet.priorityFee.fixedGwei: set either fixedGwei or percentile, not both'],
    ['blocks with a fixed tip', { fixedGwei: '1', blocks: 5 }, 'wallet.priorityFee.blocks: only with percentile'],
    ['percentile out of range', { percentile: 100 }, 'wallet.priorityFee.percentile: expected an integer from 1 to 99'],
    ['fixed tip as a number', { fixedGwei: 0.01 }, 'wallet.priorityFee.fixedGwei: expected gwei per gas as a decimal string'],
    ['fixed tip below a wei', { fixedGwei: '0.0000000001' }, 'wallet.priorityFee.fixedGwei: expected gwei per gas as a decimal string'],
    [
      'cap too small for a 1-wei tip at 2^24 gas',
      { maxEthPerTx: '0.00000000001' },
      'wallet.priorityFee.maxEthPerTx: expected at least 0.000000000016777216 ETH',
    ],
    ['zero cap', { maxEthPerTx: '0' }, 'wallet.priorityFee.maxEthPerTx: expected at least'],
    ['multiplier under 1', { launchMultiplier: 0.5 }, 'wallet.priorityFee.launchMultiplier: expected a number from 1 to 100'],
    [
      'multiplier with three decimals',
      { launchMultiplier: 1.234 },
      'wallet.priorityFee.launchMultiplier: expected a number from 1 to 100 (two decimals at most)',
    ],
    ['unknown field', { tipGwei: '1' }, 'wallet.priorityFee.tipGwei: unknown field'],
  ]
  for (const [name, value, expected] of cases) {
    it(`refuses ${name}`, async () => {
      expect(await errorOf(value)).toContain(expected)
    })
  }
})
