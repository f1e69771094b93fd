import { describe, expect, it } from 'vitest'
import { judgeReadiness } from '../../../src/domain/health/readiness.ts'

const healthyStore = { open: true, writable: true }

describe('judgeReadiness', () => {
  it('is ready with an open, writable store and every chain indexed within the lag', () => {
    const report = judgeReadiness({
      store: healthyStore,
      chains: [
        { chain: 'base', head: 100n, indexed: 98n },
        { chain: 'second_chain', head: 50n, indexed: 50n },
      ],
      maxLagBlocks: 5,
    })
    expect(report).toEqual({
      ready: true,
      problems: [],
      checks: {
        store: 'ok',
        chains: {
          base: { head: '100', indexed: '98', lagBlocks: '2', status: 'ok' },
          second_chain: { head: '50', indexed: '50', lagBlocks: '0', status: 'ok' },
        },
      },
    })
  })

  it('judges each chain by its own lag in blocks: the same minute is 300 blocks of 200 ms and 30 of 2 s', () => {
    const report = judgeReadiness({
      store: healthyStore,
      chains: [
        { chain: 'base', head: 1_000n, indexed: 750n, maxLagBlocks: 300 },
        { chain: 'second_chain', head: 1_000n, indexed: 950n, maxLagBlocks: 30 },
      ],
      maxLagBlocks: 30,
    })
    expect(report.checks.chains.base?.status).toBe('ok')
    expect(report.problems).toEqual(['second_chain: the indexer is 50 blocks behind (at most 30)'])
  })

  it('names every failing check: a store that refused a write, an unreachable chain, an indexer behind or not started', () => {
    const report = judgeReadiness({
      store: { open: true, writable: false },
      chains: [
        { chain: 'base', head: 100n, indexed: 90n },
        { chain: 'second_chain', head: null, indexed: 10n },
      ],
      maxLagBlocks: 5,
    })
    expect(report.ready).toBe(false)
    expect(report.checks.store).toBe('write_failed')
    expect(report.checks.chains.base?.status).toBe('behind')
    expect(report.checks.chains.second_chain?.status).toBe('unreachable')
    expect(report.problems).toEqual([
      'the store refused a write (disk full or read-only?): restart the daemon once fixed',
      'base: the indexer is 10 blocks behind (at most 5)',
      'second_chain: the chain does not answer',
    ])
    expect(judgeReadiness({ store: { open: false, writable: true }, chains: [{ chain: 'base', head: 1n, indexed: null }], maxLagBlocks: 5 }).problems).toEqual([
      'the store is closed',
      'base: the indexer has not processed a block yet',
    ])
  })

  it('an indexed tip ahead of a lagging node head is not negative lag', () => {
    expect(judgeReadiness({ store: healthyStore, chains: [{ chain: 'base', head: 10n, indexed: 12n }], maxLagBlocks: 0 }).checks.chains.base?.lagBlocks).toBe(
      '0',
    )
  })
})
