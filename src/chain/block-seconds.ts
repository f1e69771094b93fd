import type { ChainKey } from './chain-keys.ts'

/**
 * Block time, and the counts the daemon derives from it. Base makes a block every 200 ms since Denim (Base Mainnet
 * 2026-11-05; docs.base.org/base-chain/specs/upgrades/denim/overview), every 2 s before it. `block.timestamp` still
 * counts whole seconds, so about five consecutive blocks share one timestamp. What the daemon waits for in wall time
 * (how far behind the indexer may be, how long before a block is final, how long between retries) is written here in
 * seconds and turned into blocks with the chain's block time; what a contract counts in blocks (Clanker's sniper
 * auction rounds) stays in blocks (src/launchpads/reference-launch.ts).
 */

/** Base since Denim: five blocks a second. */
export const BASE_BLOCK_SECONDS = 0.2

/** The devnet's block time when the config names none: Base's, since Denim. */
export const DEFAULT_DEVNET_BLOCK_SECONDS = BASE_BLOCK_SECONDS

/**
 * A devnet mined by hand or per transaction has no block time; what is derived from one keeps the 2-second figures the
 * manual-mining tests were written for.
 */
export const ON_DEMAND_NOMINAL_BLOCK_SECONDS = 2

/** Shortest and longest accepted: anvil keeps up with 100 ms on a busy machine; a minute is far beyond any L2. */
export const MIN_BLOCK_SECONDS = 0.1
export const MAX_BLOCK_SECONDS = 60

/** Seconds between blocks within bounds and a whole number of milliseconds (0.2 yes, 0.0005 no). */
export function isBlockSeconds(seconds: number): boolean {
  return (
    Number.isFinite(seconds) && seconds >= MIN_BLOCK_SECONDS && seconds <= MAX_BLOCK_SECONDS && Math.abs(seconds * 1000 - Math.round(seconds * 1000)) < 1e-6
  )
}

/** The fewest whole blocks that span `seconds` (at least one). 60 s: 30 blocks of 2 s, 300 of 200 ms. */
export function blocksIn(seconds: number, blockSeconds: number): number {
  return Math.max(1, Math.ceil(seconds / blockSeconds - 1e-9))
}

/**
 * The earliest `block.timestamp` the block after one stamped `timestamp` can carry: whole seconds, and with blocks
 * shorter than a second the next block may share the second (Denim). Pricing the next block at the earliest second
 * it can have quotes a decaying launch fee at its highest possible value, never below what the block charges.
 */
export function nextBlockTimestamp(timestamp: number, blockSeconds: number): number {
  return timestamp + Math.floor(blockSeconds + 1e-9)
}

/** Wall-time budgets, each the value it had as a block count on 2-second blocks. */
export const TIMING_SECONDS = {
  /** /readyz answers 503 when the indexer is further behind the head than this (was 30 blocks of 2 s). */
  readyLag: 60,
  /**
   * A block this deep is final for the indexer's reorg window (was 12 blocks of 2 s). On Base the sequencer's unsafe
   * head is what reorgs; a batch reaches L1 within minutes, so 24 s is a window for node-level reorgs, not L1 safety.
   */
  finality: 24,
  /** A launch pool is re-evaluated at least this often without a swap (was a heartbeat of 30 blocks of 2 s). */
  heartbeat: 60,
  /** A launch log whose decoding failed is tried again after 2 s, doubling, at most about 8.5 minutes (was 1 to 256 blocks). */
  retryFirst: 2,
  retryMax: 512,
} as const

/** The chains section of the config as far as block time goes (devnet or rpc shape). */
export type ChainsTiming =
  | { mode: 'devnet'; blockTime: number | 'manual' | 'auto' }
  | { mode: 'rpc'; base: { blockTime?: number }; second_chain?: { blockTime?: number } }

/** The block time the daemon counts with on `key`: the devnet's interval, or the rpc chain's configured one. */
export function chainBlockSeconds(chains: ChainsTiming, key: ChainKey): number {
  if (chains.mode === 'devnet') return typeof chains.blockTime === 'number' ? chains.blockTime : ON_DEMAND_NOMINAL_BLOCK_SECONDS
  return chains[key]?.blockTime ?? BASE_BLOCK_SECONDS
}
