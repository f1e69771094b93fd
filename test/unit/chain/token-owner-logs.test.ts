import fc from 'fast-check'
import { type Address, decodeEventLog, encodeEventTopics, getAddress, type Hex, numberToHex, parseAbi, type PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../../src/chain/chain-keys.ts'
import { APPROVAL_TOPIC, TRANSFER_TOPIC, topicAddress } from '../../../src/chain/token-owner-logs.ts'
import { createExecutorChainReads } from '../../../daemon/executor/executor-chain-reads.ts'
import { allowanceChangesReader } from '../../../daemon/executor/warm-allowances.ts'

const ERC20_EVENTS = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Approval(address indexed owner, address indexed spender, uint256 value)',
])
const STABLECOIN = '0x833589fcd6edb6e08f4c7c32d4f71b54bda02913' as Address
const SPENDER = getAddress('0x00000000000000000000000000000000000000b7')
const address = fc.uint8Array({ minLength: 20, maxLength: 20 }).map((bytes) => getAddress(`0x${Buffer.from(bytes).toString('hex')}`))
const VALUE = `0x${'00'.repeat(31)}01` as Hex

const transfer = (from: Address, to: Address) => ({
  topics: encodeEventTopics({ abi: ERC20_EVENTS, eventName: 'Transfer', args: { from, to } }) as Hex[],
  data: VALUE,
})
const approval = (owner: Address, spender: Address) => ({
  topics: encodeEventTopics({ abi: ERC20_EVENTS, eventName: 'Approval', args: { owner, spender } }) as Hex[],
  data: VALUE,
})

/** A client answering eth_getLogs with `logs` (the node's filter applied: address and first topics), recording the asks. */
function fakeClient(logs: Array<{ topics: Hex[]; data: Hex }>) {
  const asked: unknown[] = []
  const client = {
    request: async ({ method, params }: { method: string; params: [{ address: Address; topics: [Hex[]]; fromBlock: Hex; toBlock: Hex }] }) => {
      expect(method).toBe('eth_getLogs')
      asked.push(params[0])
      return logs.filter((l) => params[0].topics[0].includes(l.topics[0]!))
    },
  } as unknown as PublicClient
  return { client, asked }
}

/**
 * The per-block readers of the stablecoin's logs take the indexed addresses from the topics, undecoded
 * (token-owner-logs.ts): what viem's decoded getLogs gave them, without its per-log decoding.
 */
describe('token owner logs', () => {
  it("topicAddress is viem's decoding of an indexed address, lower-cased", () => {
    fc.assert(
      fc.property(address, address, (from, to) => {
        const { topics, data } = transfer(from, to)
        const decoded = decodeEventLog({ abi: ERC20_EVENTS, topics: topics as [Hex, ...Hex[]], data, strict: true })
        expect(decoded.eventName).toBe('Transfer')
        const args = decoded.args
        expect(topicAddress(topics[1])).toBe((args as { from: Address }).from.toLowerCase())
        expect(topicAddress(topics[2])).toBe((args as { to: Address }).to.toLowerCase())
      }),
      { numRuns: 100 },
    )
    expect(topicAddress(undefined)).toBeUndefined()
  })

  it('changedWallets names both sides of each Transfer of the blocks asked, and nothing of another event or of a Transfer without its indexed addresses', async () => {
    const [a, b, c, d] = ['0xa1', '0xb2', '0xc3', '0xd4'].map((x) => getAddress(`0x${x.slice(2).padStart(40, '0')}`)) as [Address, Address, Address, Address]
    const { client, asked } = fakeClient([
      transfer(a, b),
      approval(c, SPENDER),
      { topics: [TRANSFER_TOPIC], data: `${VALUE}${'00'.repeat(64)}` as Hex },
      transfer(d, a),
    ])
    const reads = createExecutorChainReads({
      chains: { base: { addresses: { stablecoin: STABLECOIN } } as ChainConfig } as Record<'base' | 'second_chain', ChainConfig>,
      clients: { base: client } as Record<'base' | 'second_chain', PublicClient>,
      buyRouters: {} as never,
      stage: () => undefined,
    })
    const changed = await reads.changedWallets('base', 12n, 10n)
    expect([...changed].sort()).toEqual([a, b, d].map((x) => x.toLowerCase()).sort())
    expect(asked).toEqual([{ address: STABLECOIN, topics: [[TRANSFER_TOPIC]], fromBlock: numberToHex(10n), toBlock: numberToHex(12n) }])
  })

  it("the allowances' changed owners: a Transfer's sender and an Approval's owner for this spender only", async () => {
    const [a, b, c, d] = ['0xa1', '0xb2', '0xc3', '0xd4'].map((x) => getAddress(`0x${x.slice(2).padStart(40, '0')}`)) as [Address, Address, Address, Address]
    const other = getAddress('0x00000000000000000000000000000000000000e9')
    const { client, asked } = fakeClient([transfer(a, b), approval(c, SPENDER), approval(d, other), { topics: [APPROVAL_TOPIC], data: VALUE }])
    const read = allowanceChangesReader({ chains: { base: { addresses: { stablecoin: STABLECOIN } } as ChainConfig }, clients: { base: client } })
    const owners = await read('base', SPENDER, 5n, 5n)
    expect([...owners].sort()).toEqual([a, c].map((x) => x.toLowerCase()).sort())
    expect(asked).toEqual([{ address: STABLECOIN, topics: [[TRANSFER_TOPIC, APPROVAL_TOPIC]], fromBlock: numberToHex(5n), toBlock: numberToHex(5n) }])
  })
})
