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

  it('is not ready while our own contracts are missing on a chain, naming them and the command to run; unknown when unread', () => {
    const chains = [{ chain: 'base' as const, head: 10n, indexed: 10n }]
    const router = { name: 'PrebuyBuyRouter', address: '0x1111111111111111111111111111111111111111' }
    const vesting = { name: 'PrebuyVesting', address: '0x2222222222222222222222222222222222222222' }
    const missing = judgeReadiness({
      store: healthyStore,
      chains,
      maxLagBlocks: 5,
      contracts: {
        base: [
          { ...router, deployed: false },
          { ...vesting, deployed: true },
        ],
      },
    })
    expect(missing.ready).toBe(false)
    expect(missing.checks.contracts).toEqual({ base: 'missing' })
    expect(missing.problems).toEqual([
      'base: our contracts are not deployed (PrebuyBuyRouter at 0x1111111111111111111111111111111111111111): run `prebuy contracts deploy --chain base`',
    ])
    const unknown = judgeReadiness({ store: healthyStore, chains, maxLagBlocks: 5, contracts: { base: [{ ...router, deployed: null }] } })
    expect(unknown.checks.contracts).toEqual({ base: 'unknown' })
    expect(unknown.problems).toEqual(['base: could not read whether our contracts are deployed'])
    const deployed = judgeReadiness({ store: healthyStore, chains, maxLagBlocks: 5, contracts: { base: [{ ...router, deployed: true }] } })
    expect(deployed).toMatchObject({ ready: true, problems: [], checks: { contracts: { base: 'ok' } } })
  })
})
