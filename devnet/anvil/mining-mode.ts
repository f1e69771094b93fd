import { PrebuyError } from '../../src/common/errors.ts'
import { jsonRpc } from './json-rpc.ts'

/**
 * How an anvil chain produces blocks: a number = one block every that many seconds (Base: 2), `'manual'` = only when a
 * test mines (`anvil_mine`), `'auto'` = one block per transaction.
 */
export type MiningMode = number | 'manual' | 'auto'

export function assertMiningMode(mode: MiningMode): void {
  if (mode === 'manual' || mode === 'auto') return
  if (!Number.isInteger(mode) || mode < 1) {
    throw new PrebuyError('invalid_block_time', `Block time must be a whole number of seconds >= 1, 'manual' or 'auto' (got ${String(mode)}).`)
  }
}

/** Switches a running anvil's mining mode over RPC, so one process can deploy with automine and then run Base-like. */
export async function applyMiningMode(rpcUrl: string, mode: MiningMode): Promise<void> {
  assertMiningMode(mode)
  if (mode === 'auto') {
    await jsonRpc(rpcUrl, 'evm_setIntervalMining', [0])
    await jsonRpc(rpcUrl, 'evm_setAutomine', [true])
    return
  }
  await jsonRpc(rpcUrl, 'evm_setAutomine', [false])
  await jsonRpc(rpcUrl, 'evm_setIntervalMining', [mode === 'manual' ? 0 : mode])
}
