import type { Hex } from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import { isBlockSeconds, MAX_BLOCK_SECONDS, MIN_BLOCK_SECONDS } from '../../src/chain/block-seconds.ts'
import { jsonRpc } from './json-rpc.ts'

/**
 * How an anvil chain produces blocks: a number = one block every that many seconds, possibly fractional (Base since
 * Denim, 2026-11-05: 0.2, five blocks a second; docs.base.org/base-chain/specs/upgrades/denim/overview), `'manual'` =
 * only when a test mines (`anvil_mine`), `'auto'` = one block per transaction.
 */
export type MiningMode = number | 'manual' | 'auto'

export function assertMiningMode(mode: MiningMode): void {
  if (mode === 'manual' || mode === 'auto') return
  if (!isBlockSeconds(mode)) {
    throw new PrebuyError(
      'invalid_block_time',
      `Block time must be seconds from ${MIN_BLOCK_SECONDS} to ${MAX_BLOCK_SECONDS} in whole milliseconds (e.g. 0.2 or 2), 'manual' or 'auto' (got ${String(mode)}).`,
    )
  }
}

/**
 * anvil's `evm_setIntervalMining` takes whole seconds only (anvil 1.7.1 answers "invalid number" for 0.2, observed),
 * and once an anvil has left interval mining no RPC brings a sub-second interval back (`evm_setAutomine(false)` leaves it
 * mining nothing, observed). A sub-second interval is therefore set on anvil's command line (`--block-time 0.2`, which
 * gives five blocks a second with consecutive blocks sharing a whole-second timestamp, observed): switching to it means
 * restarting anvil (start-anvil.ts). Whole seconds keep switching over RPC.
 */
export const needsCommandLine = (mode: MiningMode): mode is number => typeof mode === 'number' && !Number.isInteger(mode)

/**
 * Switches a running anvil's mining mode over RPC, so one process can deploy with automine and then run Base-like. A
 * sub-second interval cannot be set this way: the caller restarts anvil with `--block-time` (needsCommandLine).
 */
export async function applyMiningMode(rpcUrl: string, mode: MiningMode): Promise<void> {
  assertMiningMode(mode)
  if (needsCommandLine(mode)) {
    throw new PrebuyError('invalid_block_time', `A block time of ${mode} s is set on anvil's command line (--block-time), not over RPC.`)
  }
  if (mode === 'auto') {
    await jsonRpc(rpcUrl, 'evm_setIntervalMining', [0])
    await jsonRpc(rpcUrl, 'evm_setAutomine', [true])
    return
  }
  await jsonRpc(rpcUrl, 'evm_setAutomine', [false])
  await jsonRpc(rpcUrl, 'evm_setIntervalMining', [mode === 'manual' ? 0 : mode])
}

/**
 * The mining mode of every anvil this process started, by RPC URL. Asked over RPC, an anvil on a sub-second interval
 * looks like one mined by hand: `anvil_getAutomine` is false and `anvil_getIntervalMining` answers 0 (whole seconds;
 * observed with anvil 1.7.1 and `--block-time 0.2`), so a caller that mined "because nothing else will" added a block of
 * its own to the interval's and, repeated, ran the chain's clock ahead of the wall clock.
 */
const knownModes = new Map<string, () => MiningMode>()

/** Called by start-anvil.ts for the life of the process it supervises. */
export function trackMiningMode(rpcUrl: string, current: () => MiningMode): () => void {
  knownModes.set(rpcUrl, current)
  return () => {
    if (knownModes.get(rpcUrl) === current) knownModes.delete(rpcUrl)
  }
}

/**
 * Whether a transaction sent to this chain gets mined without anyone calling `evm_mine`. Asked over RPC first (tests
 * switch modes with raw RPC behind the supervisor's back); only when the answer reads as mining by hand does the mode
 * the supervisor of this process set decide, since a sub-second interval reads the same (above). An anvil started by
 * another process on a sub-second interval gets one block too many: harmless.
 */
export async function minesByItself(rpcUrl: string): Promise<boolean> {
  if (await jsonRpc<boolean>(rpcUrl, 'anvil_getAutomine')) return true
  if (await jsonRpc<number | null>(rpcUrl, 'anvil_getIntervalMining')) return true
  const known = knownModes.get(rpcUrl)?.()
  return known !== undefined && needsCommandLine(known)
}

/**
 * Turns anvil's automine off for a burst of transactions sent back to back from one account, when it is on; `resume`
 * turns it back on. anvil's auto-miner can strand one transaction of such a burst in its pool, mined by no later block
 * (foundry-rs/foundry#10122, "block mining misses ready transactions"; AztecProtocol/aztec-packages PR 20594 measured
 * about 0.04% of the transactions of its deployments): our CI saw a launchpad deployment wait 60 s for one. With
 * automine off nothing is mined while the burst arrives, and the caller mines it by hand (mineUntilReceipt). A chain on
 * an interval or mined by hand is left as it is (switching off an interval cannot be undone over RPC: above).
 */
export async function pauseAutomine(rpcUrl: string): Promise<{ paused: boolean; resume(): Promise<void> }> {
  if (!(await jsonRpc<boolean>(rpcUrl, 'anvil_getAutomine'))) return { paused: false, resume: async () => undefined }
  await jsonRpc(rpcUrl, 'evm_setAutomine', [false])
  return { paused: true, resume: () => jsonRpc(rpcUrl, 'evm_setAutomine', [true]).then(() => undefined) }
}

/**
 * Mines blocks one by one (`evm_mine`) until `hash` has a receipt: the last transaction of a burst from one account,
 * so every earlier one is in by then. At most `most` blocks (a burst larger than that many blocks' gas is a bug).
 */
export async function mineUntilReceipt(rpcUrl: string, hash: Hex, most = 20): Promise<void> {
  for (let mined = 0; mined < most; mined++) {
    await jsonRpc(rpcUrl, 'evm_mine')
    if (await jsonRpc<unknown>(rpcUrl, 'eth_getTransactionReceipt', [hash])) return
  }
  throw new PrebuyError('devnet_deploy_failed', `Transaction ${hash} was not mined within ${most} blocks.`)
}
