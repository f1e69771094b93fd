import { LimitExceededRpcError, RpcRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { DEFAULT_GET_LOGS_MAX_BLOCKS, getLogsInChunks, isLogRangeTooLarge } from '../../../src/chain/get-logs-in-chunks.ts'

/** A provider holding one log per block in [0, head], refusing ranges wider than `limit` as real providers word it. */
function provider(head: bigint, limit: number, refusal = 'block range too large: eth_getLogs is limited to a 5 block range') {
  const ranges: Array<[bigint, bigint]> = []
  const client = { getBlockNumber: async () => head }
  const read = async (from: bigint, to: bigint): Promise<bigint[]> => {
    ranges.push([from, to])
    if (to - from + 1n > BigInt(limit)) throw new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32602, message: refusal } })
    const out: bigint[] = []
    for (let n = from; n <= to; n++) out.push(n)
    return out
  }
  return { client, read, ranges }
}

describe('getLogsInChunks', () => {
  it('never asks for more than maxBlocks at once and covers the range to the head exactly once', async () => {
    const p = provider(10_000n, 1_000_000)
    const logs = await getLogsInChunks(p.client, { fromBlock: 1n, toBlock: 'latest' }, p.read, { maxBlocks: 2_000 })
    expect(logs).toHaveLength(10_000)
    expect(logs[0]).toBe(1n)
    expect(logs.at(-1)).toBe(10_000n)
    for (const [from, to] of p.ranges) expect(to - from + 1n).toBeLessThanOrEqual(2_000n)
    expect(p.ranges).toHaveLength(5)
  })

  it('defaults to 2,000-block slices', async () => {
    const p = provider(4_999n, 1_000_000)
    await getLogsInChunks(p.client, { fromBlock: 0n, toBlock: 'latest' }, p.read)
    expect(DEFAULT_GET_LOGS_MAX_BLOCKS).toBe(2_000)
    expect(p.ranges.map(([from, to]) => to - from + 1n)).toEqual([2_000n, 2_000n, 1_000n])
  })

  it('halves the slice when the provider refuses the range, keeps the smaller slice, and still finds every log', async () => {
    const p = provider(99n, 5)
    const logs = await getLogsInChunks(p.client, { fromBlock: 0n, toBlock: 99n }, p.read, { maxBlocks: 40 })
    expect(logs).toEqual(Array.from({ length: 100 }, (_, i) => BigInt(i)))
    // 40 → 20 → 10 → 5, then 5-block slices only: three refusals in all.
    const refused = p.ranges.filter(([from, to]) => to - from + 1n > 5n)
    expect(refused).toHaveLength(3)
  })

  it('firstOnly stops at the first slice holding a log', async () => {
    const p = provider(100_000n, 1_000_000)
    const logs = await getLogsInChunks(p.client, { fromBlock: 10n, toBlock: 'latest' }, p.read, { maxBlocks: 100, firstOnly: true })
    expect(logs[0]).toBe(10n)
    expect(p.ranges).toHaveLength(1)
  })

  it('rethrows an error that is not about the range, and a refusal of a single block', async () => {
    const failing = async () => {
      throw new Error('connection reset')
    }
    await expect(getLogsInChunks({ getBlockNumber: async () => 10n }, { fromBlock: 0n, toBlock: 10n }, failing)).rejects.toThrow('connection reset')
    const p = provider(10n, 0)
    await expect(getLogsInChunks(p.client, { fromBlock: 0n, toBlock: 10n }, p.read, { maxBlocks: 4 })).rejects.toThrow(/range/)
  })
})

describe('isLogRangeTooLarge', () => {
  it.each([
    'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range and no limit on the response size',
    'query returned more than 10000 results',
    'eth_getLogs is limited to a 10,000 range',
    'exceed maximum block range: 5000',
    'block range too large',
  ])('knows the providers’ wording: %s', (message) => {
    expect(isLogRangeTooLarge(new RpcRequestError({ body: {}, url: 'http://node', error: { code: -32000, message } }))).toBe(true)
  })

  it('knows JSON-RPC -32005 limit exceeded, and not an unrelated failure', () => {
    expect(isLogRangeTooLarge(new LimitExceededRpcError(new Error('limit')))).toBe(true)
    expect(isLogRangeTooLarge(new Error('execution reverted'))).toBe(false)
  })
})
