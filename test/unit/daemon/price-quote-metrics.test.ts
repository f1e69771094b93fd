import { afterEach, describe, expect, it } from 'vitest'
import { createDaemonMetrics, type DaemonMetrics } from '../../../daemon/health/metrics/daemon-metrics.ts'
import { createPriceQuoteTally } from '../../../daemon/health/metrics/price-quote-tally.ts'
import { openTempStore } from '../../support/temp-store.ts'

describe('formula-vs-quote metrics', () => {
  let metrics: DaemonMetrics | undefined
  let cleanup: (() => Promise<void>) | undefined
  afterEach(async () => {
    metrics?.stop()
    await cleanup?.()
  })

  it('counts disagreements per chain, launchpad and kind, and unanswered quotes per chain, at each scrape', async () => {
    const { store, remove } = await openTempStore('price-quote-metrics')
    cleanup = remove
    const tally = createPriceQuoteTally()
    metrics = createDaemonMetrics({
      store,
      readiness: async () => ({ ready: true, checks: { store: 'ok', chains: {} } }) as never,
      bundlers: () => ({}),
      processMetrics: false,
      priceQuotes: tally,
    })
    const capDiffers = { kind: 'cap_differs' as const, deviationBps: 2_500 }
    tally.onDisagreement({ chain: 'base', launchpad: 'doppler', slug: 'a', blockNumber: '1', comparison: capDiffers })
    tally.onDisagreement({ chain: 'base', launchpad: 'doppler', slug: 'b', blockNumber: '2', comparison: capDiffers })
    tally.onDisagreement({
      chain: 'base',
      launchpad: 'zora',
      slug: 'c',
      blockNumber: '2',
      comparison: { kind: 'swaps_differ', formulaAllows: true, quoteAllows: false },
    })
    tally.onDisagreement({ chain: 'base', launchpad: 'clanker', slug: 'd', blockNumber: '3', comparison: { kind: 'cap_differs', deviationBps: -3_000 } })
    tally.onFailure('base')
    const text = await metrics.registry.metrics()
    expect(text).toContain('prebuy_price_quote_disagreements_total{chain="base",launchpad="doppler",kind="quote_dearer"} 2')
    expect(text).toContain('prebuy_price_quote_disagreements_total{chain="base",launchpad="zora",kind="swaps_differ"} 1')
    expect(text).toContain('prebuy_price_quote_disagreements_total{chain="base",launchpad="clanker",kind="quote_cheaper"} 1')
    expect(text).toContain('prebuy_price_quote_failures_total{chain="base"} 1')
    // A later scrape shows the new total, not a sum of scrapes.
    tally.onFailure('base')
    expect(await metrics.registry.metrics()).toContain('prebuy_price_quote_failures_total{chain="base"} 2')
  })
})
