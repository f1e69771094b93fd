import { isAddressEqual, type Address, type Log, parseAbi } from 'viem'
import { decodeEventLogCached } from '../../chain/decode-event-log.ts'
import type { LaunchSupplySplit, SupplySplitRules } from '../../domain/launches/supply-split.ts'
import { CLANKER_TOKEN_CREATED } from './clanker-abi.ts'
import { eventTopicsOf, mayBeEventOf } from '../../chain/event-topics.ts'

/**
 * Clanker v4's supply rules (clanker-devco/v4-contracts src/Clanker.sol at b004c2edda29fa282a16d5d1441a26484f70b37f):
 * `TOKEN_SUPPLY = 100_000_000_000e18`, `BPS = 10_000`, `MAX_EXTENSIONS = 10`, `MAX_EXTENSION_BPS = 9000`;
 * `_prepareExtensions` returns `sum(extensionBps) * TOKEN_SUPPLY / BPS` (0 without extensions; `MaxExtensionsExceeded`,
 * `MaxExtensionBpsExceeded`), the pool gets the rest, and `_triggerExtensions` hands each extension
 * `extensionBps * TOKEN_SUPPLY / BPS`, announcing it in `ExtensionTriggered`, before `TokenCreated` names the total.
 * The devnet factory keeps the same constants (DevnetClankerFactory.sol).
 */
export const CLANKER_SUPPLY_RULES: SupplySplitRules = {
  tokenSupply: (100_000_000_000n * 10n ** 18n).toString(),
  bps: 10_000,
  maxExtensionBps: 9_000,
  maxExtensions: 10,
}

/** IClanker.sol `ExtensionTriggered(address extension, uint256 extensionSupply, uint256 msgValue)`, from the factory. */
export const CLANKER_EXTENSION_TRIGGERED = parseAbi(['event ExtensionTriggered(address extension, uint256 extensionSupply, uint256 msgValue)'])[0]
const SPLIT_EVENTS = [CLANKER_EXTENSION_TRIGGERED, CLANKER_TOKEN_CREATED] as const
const SPLIT_TOPICS = eventTopicsOf(SPLIT_EVENTS)

/**
 * The split a TokenCreated log announces: its `extensionsSupply` and `extensions`, and what the factory's
 * ExtensionTriggered logs of the same deployment handed out (those after the transaction's previous TokenCreated of the
 * factory, before this one: a contract may deploy several tokens in one transaction).
 */
export function clankerSupplySplit(
  created: { extensionsSupply: bigint; extensions: readonly Address[] },
  log: Pick<Log, 'logIndex'>,
  txLogs: readonly Log[],
  factory: Address,
): LaunchSupplySplit {
  let handed: string[] = []
  const ordered = [...txLogs].sort((a, b) => (a.logIndex ?? 0) - (b.logIndex ?? 0))
  for (const entry of ordered) {
    if ((entry.logIndex ?? 0) >= (log.logIndex ?? 0)) break
    if (!isAddressEqual(entry.address, factory)) continue
    if (!mayBeEventOf(SPLIT_TOPICS, entry)) continue // another factory event
    try {
      const decoded = decodeEventLogCached({ abi: SPLIT_EVENTS, data: entry.data, topics: entry.topics, strict: true })
      if (decoded.eventName === 'TokenCreated') handed = []
      else handed.push(decoded.args.extensionSupply.toString())
    } catch {
      // another factory event
    }
  }
  return { extensionsSupply: created.extensionsSupply.toString(), extensions: created.extensions.map(String), extensionSupplies: handed }
}
