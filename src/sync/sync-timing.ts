/**
 * The realtime sync's timings derived from a chain's block time (the daemon's defaults, start-indexer.ts). Base mines
 * a block every 200 ms since 2026-11-05 (docs.base.org/base-chain/specs/upgrades/denim/overview; ../shared/facts/base-today.md).
 */

/**
 * The HTTP polling interval while no socket delivers heads (before it first does, and while it is down): half a
 * block, between 50 and 500 ms. Base: 100 ms. The former fixed 500 ms found a head two or three blocks up on Base, so a
 * launch was seen up to 2.5 blocks late whenever the socket was down.
 */
export const pollingMsFor = (blockSeconds: number): number => Math.min(500, Math.max(50, Math.round(blockSeconds * 500)))

/**
 * One head read after this long without a head over the socket (RealtimeSyncOptions.socketGapMs): two blocks, at least
 * 250 ms. Base: 400 ms. Without it a socket that lags or died quietly held every block for the silence bound (30 s).
 */
export const socketGapMsFor = (blockSeconds: number): number => Math.max(250, Math.round(blockSeconds * 2_000))
