import type { Address, PublicClient } from 'viem'
import { notAnswered } from '../../chain/not-answered.ts'
import { CLANKER_MAX_MEV_MODULE_DELAY, type ClankerAuctionSchedule } from '../../pricing/schedules/clanker-auction.ts'
import { feeSource } from '../launchpad-adapter.ts'
import { CLANKER_AUCTION_ABI } from './clanker-abi.ts'

/** The part of a Clanker auction schedule that follows the module's state. */
export type AuctionState = Pick<ClankerAuctionSchedule, 'nextAuctionBlock' | 'decayFrom' | 'moduleEndsAt'>

interface AuctionLaunch {
  poolId: `0x${string}`
  launchedAt: number
  feeSources: Record<string, Address>
}

/**
 * A SniperAuctionV2 module's state for a pool as of `blockNumber` (latest when omitted), or null when `mevModule` is not
 * an auction module (no `nextAuctionBlock` getter: the descending-fee module). A failed RPC read throws: the indexer
 * retries (at launch, the launch is quarantined and retried).
 *
 * The decay start the module will use if the next auction passes unbid is its internal `auctionTimestamp`: the
 * launch's time in round 1 (the module is initialised in the launch transaction), else the time of the block in which
 * the last round was won, `blocksBetweenAuction` before the next auction block (ClankerSniperAuctionV2._prepareNextRound).
 */
export async function readAuctionSchedule(client: PublicClient, launch: AuctionLaunch, mevModule: Address, blockNumber?: bigint): Promise<AuctionState | null> {
  const at = blockNumber === undefined ? {} : { blockNumber }
  const read = (address: Address, functionName: 'nextAuctionBlock' | 'round' | 'poolDecayStartTime' | 'poolCreationTimestamp') =>
    client.readContract({ address, abi: CLANKER_AUCTION_ABI, functionName, args: [launch.poolId], ...at })
  const hook = feeSource(launch, 'hook')
  // Every getter at once (issue 23 item 3: a launch's fee schedule is on its first tick's path, and four serial round
  // trips were three too many). Whether the module is an auction module at all is still its nextAuctionBlock's
  // answer: when it has none, the others' answers (or refusals) are dropped, as if never asked.
  const next = read(mevModule, 'nextAuctionBlock')
  const rest = Promise.all([
    read(mevModule, 'round'),
    read(mevModule, 'poolDecayStartTime'),
    read(hook, 'poolCreationTimestamp').catch((error: unknown) => (notAnswered(error) ? BigInt(launch.launchedAt) : Promise.reject(error))),
    client
      .readContract({ address: hook, abi: CLANKER_AUCTION_ABI, functionName: 'MAX_MEV_MODULE_DELAY', ...at })
      .catch((error: unknown) => (notAnswered(error) ? BigInt(CLANKER_MAX_MEV_MODULE_DELAY) : Promise.reject(error))),
    client.readContract({ address: mevModule, abi: CLANKER_AUCTION_ABI, functionName: 'blocksBetweenAuction', ...at }),
  ])
  rest.catch(() => undefined)
  let nextAuctionBlock: bigint
  try {
    nextAuctionBlock = await next
  } catch (error) {
    if (notAnswered(error)) return null
    throw error
  }
  const [round, decayStart, created, delay, between] = await rest
  const moduleEndsAt = Number(created + delay)
  if (decayStart !== 0n) return { nextAuctionBlock: null, decayFrom: Number(decayStart), moduleEndsAt }
  const lastWon = round <= 1n ? null : await client.getBlock({ blockNumber: nextAuctionBlock - between })
  return { nextAuctionBlock: nextAuctionBlock.toString(), decayFrom: lastWon ? Number(lastWon.timestamp) : Number(created), moduleEndsAt }
}
