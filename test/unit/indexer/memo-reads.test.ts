import { createPublicClient, custom, encodeFunctionResult, getAddress, parseAbi, type PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { memoReads } from '../../../daemon/indexer/memo-reads.ts'

const ABI = parseAbi(['function balanceLimitEnd() view returns (uint48)'])
const NO_GETTER = getAddress('0x00000000000000000000000000000000000000aa')
const FLAKY = getAddress('0x00000000000000000000000000000000000000bb')

/** A node whose NO_GETTER contract answers no data (it has no such getter) and whose FLAKY one fails the first request. */
function node() {
  const asked: string[] = []
  let failed = false
  const client = createPublicClient({
    transport: custom(
      {
        async request({ method, params }) {
          if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
          const to = getAddress((params as [{ to: string }])[0].to)
          asked.push(to)
          if (to === NO_GETTER) return '0x'
          if (!failed) {
            failed = true
            throw new Error('socket hang up')
          }
          return encodeFunctionResult({ abi: ABI, functionName: 'balanceLimitEnd', result: 7 })
        },
      },
      { retryCount: 0 },
    ),
  }) as PublicClient
  return { client, asked }
}

describe('memoReads', () => {
  it("shares a contract's refusal like an answer, and asks again after a failed request", async () => {
    const { client, asked } = node()
    const reads = memoReads(client)
    const read = (address: `0x${string}`) => reads.readContract({ address, abi: ABI, functionName: 'balanceLimitEnd', blockNumber: 5n })
    // The refusal is the contract's answer at that block: the second asking (after the receipt) waits on the first.
    await expect(read(NO_GETTER)).rejects.toThrow()
    await expect(read(NO_GETTER)).rejects.toThrow()
    expect(asked.filter((a) => a === NO_GETTER)).toHaveLength(1)
    // A request the node failed is not an answer: asked again, and answered.
    await expect(read(FLAKY)).rejects.toThrow()
    await expect(read(FLAKY)).resolves.toBe(7)
    expect(asked.filter((a) => a === FLAKY)).toHaveLength(2)
  })

  it('shares a read asked through another ABI object of the same content, never one of another ABI or block', async () => {
    const { client, asked } = node()
    const reads = memoReads(client)
    // FLAKY's first request fails: asked once here, so that every later read is answered.
    await expect(reads.readContract({ address: FLAKY, abi: ABI, functionName: 'balanceLimitEnd', blockNumber: 1n })).rejects.toThrow()
    const read = (abi: typeof ABI, blockNumber: bigint) => reads.readContract({ address: FLAKY, abi, functionName: 'balanceLimitEnd', blockNumber })
    const count = () => asked.filter((a) => a === FLAKY).length
    await expect(read(ABI, 5n)).resolves.toBe(7)
    // The same ABI written again (a parseAbi in a function body): the same call, shared.
    await expect(read(parseAbi(['function balanceLimitEnd() view returns (uint48)']), 5n)).resolves.toBe(7)
    expect(count()).toBe(2)
    // Another block: asked.
    await expect(read(ABI, 6n)).resolves.toBe(7)
    expect(count()).toBe(3)
    // An ABI of other content (here another getter besides): asked, not shared.
    const wider = parseAbi(['function balanceLimitEnd() view returns (uint48)', 'function maxBalanceLimit() view returns (uint256)'])
    await expect(reads.readContract({ address: FLAKY, abi: wider, functionName: 'balanceLimitEnd', blockNumber: 5n })).resolves.toBe(7)
    expect(count()).toBe(4)
  })
})
