import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import type { Abi, AbiEvent, AbiFunction } from 'viem'
import { describe, expect, it } from 'vitest'
import { STATE_VIEW as INDEXER_STATE_VIEW } from '../../../daemon/indexer/state-view-abi.ts'
import { V4_QUOTER_ABI } from '../../../src/launchpads/quote-buy.ts'
import { EXTSLOAD } from '../../../src/launchpads/read-pool-lp-fee.ts'
import { POOL_MANAGER_EVENTS } from '../../../src/launchpads/v4-events.ts'

/**
 * The Uniswap v4 fragments the daemon calls and decodes, pinned against the ABIs Uniswap publishes on npm (the
 * compiled artifacts of @uniswap/v4-core and @uniswap/v4-periphery, pinned devDependencies; the same builds the devnet
 * deploys): the V4Quoter call and its revert wrappings that decide every launched pool's buys, the PoolManager's
 * Initialize and Swap events (launch detection, price ticks) and extsload (slot0's LP and protocol fee), StateView's
 * getters. The launchpads' own ABIs (Clanker, Doppler, Zora) are pinned in abi-drift.test.ts.
 */
const require = createRequire(import.meta.url)
const artifact = (path: string): Abi => JSON.parse(readFileSync(require.resolve(path), 'utf8')).abi as Abi
const V4_QUOTER = artifact('@uniswap/v4-periphery/foundry-out/V4Quoter.sol/V4Quoter.json')
const STATE_VIEW = artifact('@uniswap/v4-periphery/foundry-out/StateView.sol/StateView.json')
const POOL_MANAGER = artifact('@uniswap/v4-core/out/PoolManager.sol/PoolManager.json')
const QUOTER_REVERT = artifact('@uniswap/v4-periphery/foundry-out/QuoterRevert.sol/QuoterRevert.json')
const CUSTOM_REVERT = artifact('@uniswap/v4-core/out/CustomRevert.sol/CustomRevert.json')

type Item = AbiEvent | AbiFunction | { type: 'error'; name: string; inputs: readonly { type: string }[] }

/** Types, indexed flags, outputs and mutability, without parameter names (which may differ harmlessly). */
function shape(item: Item): unknown {
  const param = (p: { type: string; indexed?: boolean; components?: readonly unknown[] }): unknown => ({
    type: p.type,
    indexed: p.indexed ?? false,
    components: (p.components as Array<{ type: string }> | undefined)?.map(param),
  })
  if (item.type === 'function')
    return { name: item.name, inputs: item.inputs.map(param), outputs: item.outputs.map(param), stateMutability: item.stateMutability }
  return { type: item.type, name: item.name, inputs: item.inputs.map(param) }
}

function expectPublished(ours: readonly unknown[], ...abis: Abi[]): void {
  for (const raw of ours) {
    const item = raw as Item
    // Overloads (extsload has three) and an error declared in two artifacts: one of them must be ours exactly.
    const theirs = abis.flat().filter((i) => i.type === item.type && 'name' in i && i.name === item.name) as Item[]
    expect(theirs.length, `${item.type} ${item.name} in the published ABI`).toBeGreaterThan(0)
    expect(theirs.map(shape), `${item.type} ${item.name}`).toContainEqual(shape(item))
  }
}

describe('Uniswap v4 ABIs match what Uniswap publishes', () => {
  it('V4Quoter: quoteExactInputSingle, and the errors a reverted quote comes wrapped in', () => {
    expectPublished(V4_QUOTER_ABI, V4_QUOTER, QUOTER_REVERT, CUSTOM_REVERT)
  })

  it('PoolManager: Initialize, Swap, extsload', () => {
    expectPublished(POOL_MANAGER_EVENTS, POOL_MANAGER)
    expectPublished(EXTSLOAD, POOL_MANAGER)
  })

  it('StateView: getSlot0 and getLiquidity as the indexer reads them', () => {
    expectPublished(INDEXER_STATE_VIEW, STATE_VIEW)
  })
})
