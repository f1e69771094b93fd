import { describe, expect, it } from 'vitest'
import { promotedBytes, runClient } from '../bench/rpc-promotion/rpc-promotion-bench.ts'

// The rpc-promotion bench's parts (test/bench/rpc-promotion/; docs/execution.md §8 "The RPC transport of our own"):
// V8's trace summed, and the child run through each transport. The figures themselves are the bench's, not a test's.
describe('the rpc-promotion bench', () => {
  it("sums V8's promoted bytes over a --trace-gc-nvp output, and nothing else", () => {
    const trace = [
      '[1:0x1]    33 ms: pause=0.7 mutator=28.8 gc=s allocated=4854664 promoted=0 new_space_survived=465464 nodes_promoted=1',
      '[1:0x1]    42 ms: pause=0.6 mutator=8.2 gc=s allocated=710304 promoted=427752 new_space_survived=228840',
      'a line of the program that is not a trace',
      '[1:0x1]    61 ms: pause=0.6 gc=mc promoted=201704 promotion_ratio=19.6%',
    ].join('\n')
    expect(promotedBytes(trace)).toBe(427_752 + 201_704)
    expect(promotedBytes('')).toBe(0)
  })

  it.each(['ours', 'viem-http'] as const)(
    'runs requests through %s in a child under the trace and reports them',
    async (transport) => {
      const run = await runClient(transport, 200)
      expect(run.msPerRequest).toBeGreaterThan(0)
      // The child ran under --trace-gc-nvp (its start-up alone, loading viem through tsx, fills a 4 MB young generation
      // several times) and what it promoted was summed.
      expect(run.collections).toBeGreaterThan(0)
      expect(run.promoted).toBeGreaterThan(0)
    },
    60_000,
  )
})
