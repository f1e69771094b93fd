import type { Address, Hex, PublicClient } from 'viem'
import { notAnswered } from '../../chain/not-answered.ts'
import type { ScheduleCommon } from '../../pricing/fee-schedule.ts'
import { CLANKER_MAX_MEV_MODULE_DELAY, type ClankerAuctionSchedule } from '../../pricing/schedules/clanker-auction.ts'
import { CLANKER_AUCTION_ABI, CLANKER_V40_MODULE_ABI } from './clanker-abi.ts'

/** What a Clanker v4.0 module's schedule needs of the launch. */
export interface V40Launch {
  poolId: Hex
  launchedAt: number
  hook: Address
  lpFee: number
}

/** The schedule part a v4.0 module decides: the gated blocks (or time) and which module it is. */
export type V40ModuleState = Pick<ClankerAuctionSchedule, 'nextAuctionBlock' | 'module'> & { swapsFrom?: number }

/**
 * Clanker v4.0's MEV modules (clanker-devco/v4-contracts at b004c2edda29fa282a16d5d1441a26484f70b37f; on Base, README
 * "v4.0": ClankerMevBlockDelay 0xE143f987…02A2, ClankerSniperAuctionV0 0xFdc013ce…d1E8) have no `feeConfig` and charge no
 * fee of their own: the pool charges its LP fee and the hook its 20% protocol fee, nothing else. They only gate blocks,
 * each within the hook's MAX_MEV_MODULE_DELAY (120 s from the pool's creation, src/hooks/ClankerHook.sol
 * `_runMevModule`), after which the hook never calls them again:
 * - ClankerMevBlockDelay: `beforeSwap` reverts PoolLocked while block.number < poolUnlockTime(poolId) (= launch block +
 *   blockDelay, set in `initialize`); the first swap after disables it. Gated through poolUnlockTime - 1.
 * - ClankerSniperAuctionV0: before nextAuctionBlock NotAuctionBlock; in it only a bid (the swap's hook data names a
 *   payee who pays (tx.gasprice - gasPeg) * paymentPerGasUnit WETH; a plain swap's empty data reverts in abi.decode,
 *   without a reason); a won round moves nextAuctionBlock `blocksBetweenAuction` on (up to maxRounds, after which the
 *   module disables itself); after an unbid auction block the first swap disables it. Gated through nextAuctionBlock,
 *   read again each block while a round can be won. A bid's cost is a flat WETH amount set by the bidder's gas price
 *   against competitors' (priority ordering), not a fraction of the buy, and prebuy never bids (docs/launchpads.md):
 *   the auction blocks are gated, the first open block is bought at the LP fee.
 * - ClankerMevTimeDelay (Arbitrum's, same file set): PoolLocked while block.timestamp < poolUnlockTime: swapsFrom.
 * - Any other module without these getters: its rules are unknown, but the hook stops calling it 120 s after the pool's
 *   creation, so the launch is gated until then (swapsFrom) and priced at its LP fee after: never quarantined forever.
 * Called for a module that does not answer `feeConfig` (SniperAuctionV2 and the descending-fee module do). A failed RPC
 * read throws (the launch is quarantined and retried).
 */
export async function readV40Module(client: PublicClient, launch: V40Launch, mevModule: Address): Promise<ClankerAuctionSchedule & ScheduleCommon> {
  const answered = async <T>(read: Promise<T>): Promise<T | null> => {
    try {
      return await read
    } catch (error) {
      if (notAnswered(error)) return null
      throw error
    }
  }
  const moduleRead = (functionName: 'blockDelay' | 'timeDelay') =>
    answered(client.readContract({ address: mevModule, abi: CLANKER_V40_MODULE_ABI, functionName }))
  // Which delay module it is (asked only when it is no SniperAuctionV0) is read with the rest, one round trip instead
  // of up to three (issue 23 item 3); an answer not needed is dropped, as if never asked.
  const blockDelayRead = moduleRead('blockDelay')
  const timeDelayRead = moduleRead('timeDelay')
  blockDelayRead.catch(() => undefined)
  timeDelayRead.catch(() => undefined)
  const [v0Next, unlock, moduleEndsAt] = await Promise.all([
    answered(client.readContract({ address: mevModule, abi: CLANKER_AUCTION_ABI, functionName: 'nextAuctionBlock', args: [launch.poolId] })),
    answered(client.readContract({ address: mevModule, abi: CLANKER_V40_MODULE_ABI, functionName: 'poolUnlockTime', args: [launch.poolId] })),
    readModuleEndsAt(client, launch),
  ])
  const base = {
    kind: 'clanker_auction' as const,
    startingFee: 0,
    endingFee: 0,
    secondsToDecay: 0,
    lpFee: launch.lpFee,
    decayFrom: launch.launchedAt,
    moduleEndsAt,
  }
  let state: V40ModuleState
  if (v0Next !== null) state = { module: 'sniper_auction_v0', nextAuctionBlock: v0Next.toString() }
  else if (unlock !== null && (await blockDelayRead) !== null)
    state = { module: 'block_delay', nextAuctionBlock: unlock > 0n ? (unlock - 1n).toString() : null }
  else if (unlock !== null && (await timeDelayRead) !== null)
    state = { module: 'time_delay', nextAuctionBlock: null, swapsFrom: Math.min(Number(unlock), moduleEndsAt) }
  else state = { module: 'unknown', nextAuctionBlock: null, swapsFrom: moduleEndsAt }
  return { ...base, ...state }
}

/** SniperAuctionV0's gate as of `blockNumber`: its nextAuctionBlock then (a won round moved it on). */
export async function readAuctionV0Next(client: PublicClient, poolId: Hex, mevModule: Address, blockNumber: bigint): Promise<string> {
  const next = await client.readContract({ address: mevModule, abi: CLANKER_AUCTION_ABI, functionName: 'nextAuctionBlock', args: [poolId], blockNumber })
  return next.toString()
}

/** The hook's pool creation time + its MAX_MEV_MODULE_DELAY (the v4.0 ClankerHook has both getters, as V2). */
async function readModuleEndsAt(client: PublicClient, launch: V40Launch): Promise<number> {
  const orDefault = <T>(read: Promise<T>, fallback: T): Promise<T> => read.catch((error: unknown) => (notAnswered(error) ? fallback : Promise.reject(error)))
  const [created, delay] = await Promise.all([
    orDefault(
      client.readContract({ address: launch.hook, abi: CLANKER_AUCTION_ABI, functionName: 'poolCreationTimestamp', args: [launch.poolId] }),
      BigInt(launch.launchedAt),
    ),
    orDefault(
      client.readContract({ address: launch.hook, abi: CLANKER_AUCTION_ABI, functionName: 'MAX_MEV_MODULE_DELAY' }),
      BigInt(CLANKER_MAX_MEV_MODULE_DELAY),
    ),
  ])
  return Number(created + delay)
}
