import { createPublicClient, custom, erc20Abi, InvalidParamsRpcError, RpcRequestError } from 'viem'
import { describe, expect, it } from 'vitest'
import { isStateUnavailable, type StateFallback, withLatestStateFallback } from '../../../src/chain/latest-state-fallback.ts'

const TOKEN = '0x0000000000000000000000000000000000000001'
const HOLDER = '0x0000000000000000000000000000000000000002'
const ONE = `0x${'0'.repeat(63)}1`

/** A node that keeps state only for blocks >= 100 (and "latest"), answering with `refusal` below that. */
function prunedNode(refusal: string) {
  const calls: Array<{ method: string; block: unknown }> = []
  const transport = custom({
    async request({ method, params }: { method: string; params: unknown[] }) {
      const block = method === 'eth_getStorageAt' ? params[2] : params[1]
      calls.push({ method, block })
      if (typeof block === 'string' && block.startsWith('0x') && Number(block) < 100)
        throw new RpcRequestError({ body: {}, url: 'node', error: { code: -32000, message: refusal } })
      if (method === 'eth_call') return ONE
      if (method === 'eth_getBalance') return '0x2a'
      if (method === 'eth_chainId') return '0x1'
      throw new Error(`unexpected ${method}`)
    },
  })
  return { transport, calls }
}

describe('reads at a block whose state the node cannot serve', () => {
  it.each([
    ['geth / op-geth', 'missing trie node 5f0e0d6b0e4c2b7f (path )'],
    ['reth', 'State at block #11052984 is pruned'],
    ['anvil restarted from a dump', 'BlockOutOfRangeError: block height is 13 but requested was 5'],
    ['a node behind its load balancer', 'header not found'],
  ])('fall back to the latest state (%s), and say so', async (_node, refusal) => {
    const node = prunedNode(refusal)
    const fallbacks: StateFallback[] = []
    const client = createPublicClient({ transport: withLatestStateFallback(node.transport, (f) => fallbacks.push(f)) })
    const balance = await client.readContract({ address: TOKEN, abi: erc20Abi, functionName: 'balanceOf', args: [HOLDER], blockNumber: 50n })
    expect(balance).toBe(1n)
    expect(await client.getBalance({ address: HOLDER, blockNumber: 7n })).toBe(42n)
    expect(node.calls.map((c) => c.block)).toEqual(['0x32', 'latest', '0x7', 'latest'])
    expect(fallbacks).toEqual([
      { method: 'eth_call', requested: '0x32' },
      { method: 'eth_getBalance', requested: '0x7' },
    ])
  })

  it('read at a block the node serves: no fallback', async () => {
    const node = prunedNode('missing trie node')
    const client = createPublicClient({ transport: withLatestStateFallback(node.transport) })
    expect(await client.getBalance({ address: HOLDER, blockNumber: 150n })).toBe(42n)
    expect(node.calls.map((c) => c.block)).toEqual(['0x96'])
  })

  it('other failures pass through unchanged (a revert, a bad request, a latest read that failed)', async () => {
    const node = prunedNode('execution reverted')
    const client = createPublicClient({ transport: withLatestStateFallback(node.transport) })
    await expect(client.getBalance({ address: HOLDER, blockNumber: 7n })).rejects.toThrow(/execution reverted/)
    expect(node.calls).toHaveLength(1)
  })

  it('recognises the refusal anywhere in the cause chain, and nothing else', () => {
    const wrapped = new Error('read failed', { cause: new InvalidParamsRpcError(new Error('BlockOutOfRangeError: block height is 3 but requested was 1')) })
    expect(isStateUnavailable(wrapped)).toBe(true)
    expect(isStateUnavailable(new Error('execution reverted: Ownable'))).toBe(false)
    expect(isStateUnavailable('missing trie node')).toBe(false)
  })
})
