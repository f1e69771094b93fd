import { type Address, type Hex, numberToHex, type PublicClient, toEventSelector } from 'viem'

/** ERC-20 `Transfer(address indexed from, address indexed to, uint256 value)`'s first topic (USDC's FiatToken emits it so). */
export const TRANSFER_TOPIC = toEventSelector('Transfer(address,address,uint256)')
/** ERC-20 `Approval(address indexed owner, address indexed spender, uint256 value)`'s first topic. */
export const APPROVAL_TOPIC = toEventSelector('Approval(address,address,uint256)')

/** A log as eth_getLogs answers it, the part these readers look at: its topics. */
export interface TopicsLog {
  topics: readonly Hex[]
}

/**
 * A token's logs over `[fromBlock, toBlock]` whose first topic is one of `topics`, undecoded: the executor's per-block
 * readers need only the addresses in their indexed topics. viem's getLogs with `event`/`events` decodes every log,
 * formatting and hashing the ABI item for each (its parseEventLogs), every block: 4.7 ms of the split bench's launch
 * seconds in its CPU profile (2026-11-28). The node filters by the same topics viem's getLogs would send.
 */
export async function tokenLogsByTopic(
  client: Pick<PublicClient, 'request'>,
  token: Address,
  topics: readonly Hex[],
  fromBlock: bigint,
  toBlock: bigint,
): Promise<readonly TopicsLog[]> {
  return client.request({
    method: 'eth_getLogs',
    params: [{ address: token, topics: [[...topics]], fromBlock: numberToHex(fromBlock), toBlock: numberToHex(toBlock) }],
  })
}

/**
 * The address an indexed address topic carries (its last 20 bytes, lower-cased), as viem decodes it; undefined when the
 * log has no such topic (an event of the same signature with fewer indexed fields, which viem leaves without args).
 */
export function topicAddress(topic: Hex | undefined): string | undefined {
  if (topic === undefined || topic.length !== 66) return undefined
  return `0x${topic.slice(26)}`.toLowerCase()
}
