import type { Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import { createReorgEpochs } from '../../../daemon/executor/reorg-epochs.ts'
import type { Settlement } from '../../../daemon/executor/settle-buys.ts'
import { settleReadBuys } from '../../../daemon/executor/settle-read-buys.ts'
import { silentLogger } from '../../../src/common/logger.ts'
import type { InFlightExecution } from '../../../src/journal/journal-records.ts'

/** A single buy read as bought at `block` (its outcome as the chain said when it was read). */
const bought = (keyId: string, block: bigint): Settlement => ({
  entry: { keyId, slug: 's', chain: 'base' } as InFlightExecution,
  outcome: { txHash: `0x${block.toString(16).padStart(64, '0')}` as Hash, blockNumber: block, amountIn: 1n, tokensReceived: 1n, fee: 0n },
})

/**
 * settle-read-buys.ts: a tick's single buys are settled from what was read only if no reorg was signalled since the
 * read began; else read again from the chain (a fill in a block the reorg dropped would never be looked at again).
 */
describe('settling read buys across a reorg signal (reorg-epochs.ts)', () => {
  const setup = (chainNow: (s: Settlement, round: number) => Settlement) => {
    const epochs = createReorgEpochs()
    const written: Settlement[][] = []
    let round = 0
    const reads: string[] = []
    const settler = {
      settle: async (settlements: readonly Settlement[]) => void written.push([...settlements]),
      fromChain: async (entry: InFlightExecution, failure?: Settlement['failure'], extra?: Settlement['extra']) => {
        reads.push(entry.keyId)
        return chainNow({ entry, failure, extra }, round)
      },
    }
    const ctx = { withChainLock: <T>(_chain: string, fn: () => Promise<T>) => fn(), log: silentLogger, reorgEpochs: epochs }
    return { epochs, written, reads, settler, ctx, nextRound: () => round++ }
  }

  it('no reorg signalled since the read: settled as read, nothing read again', async () => {
    const { epochs, written, reads, settler, ctx } = setup(() => {
      throw new Error('not read again')
    })
    const epoch = epochs.of('base')
    await settleReadBuys(ctx, settler, { chain: 'base', slug: 's' }, [bought('a', 10n)], epoch)
    expect(written.map((w) => w.map((s) => s.outcome?.blockNumber))).toEqual([[10n]])
    expect(reads).toEqual([])
  })

  it('a reorg signalled while the buys were read: each read again from the chain and settled from there, the stale read never written', async () => {
    const { epochs, written, reads, settler, ctx } = setup((s) => ({ ...s, outcome: bought(s.entry.keyId, 11n).outcome }))
    const epoch = epochs.of('base')
    epochs.bump('base')
    await settleReadBuys(
      ctx,
      settler,
      { chain: 'base', slug: 's' },
      [bought('a', 10n), { ...bought('b', 10n), outcome: undefined, failure: { reason: 'x' } }],
      epoch,
    )
    expect(reads).toEqual(['a', 'b'])
    expect(written).toHaveLength(1)
    expect(written[0]!.map((s) => s.outcome?.blockNumber)).toEqual([11n, 11n])
  })

  it('another reorg signalled during the second read: read a third time', async () => {
    const { epochs, written, reads, settler, ctx, nextRound } = setup((s, round) => {
      if (round === 0) epochs.bump('base')
      nextRound()
      return { ...s, outcome: bought(s.entry.keyId, BigInt(20 + round)).outcome }
    })
    const epoch = epochs.of('base')
    epochs.bump('base')
    await settleReadBuys(ctx, settler, { chain: 'base', slug: 's' }, [bought('a', 10n)], epoch)
    expect(reads).toEqual(['a', 'a'])
    expect(written.map((w) => w.map((s) => s.outcome?.blockNumber))).toEqual([[21n]])
  })
})
