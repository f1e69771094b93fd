import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type InProcessDaemon, startInProcessDaemon } from '../executor/in-process-daemon.ts'
import { TICK_SECONDS_BUCKETS } from '../../daemon/health/metrics/executor-tick-times.ts'

/** The value of one sample line of a Prometheus text exposition (undefined when absent). */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

const count = (text: string, kind: string) => sample(text, `prebuy_executor_tick_seconds_count{chain="base",kind="${kind}"}`) ?? 0

/**
 * The executor's tick times in the daemon's metrics (issue 23 item 4): a real daemon (200 ms devnet), a book held after
 * its launch (its limit below the launch price) and ticked every block while the fee decays, one PATCH over the API;
 * the admin listener's GET /metrics counts each kind of tick. Counts only: how long the ticks take is the bench's
 * (`npm run bench -- --only held-ticks`).
 */
describe('metrics: the executor tick times per kind', () => {
  let d: InProcessDaemon | undefined
  let scrape: () => Promise<string>
  // The last scrape's launch and tick series, for a timeout's message.
  let last = ''
  beforeAll(async () => {
    d = await startInProcessDaemon({ prefix: 'prebuy-tick-metrics-' })
    const token = (await readFile(join(d.dataDir, 'operator-token'), 'utf8')).trim()
    const adminUrl = d.daemon.adminUrl
    scrape = async () => {
      last = await (await fetch(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } })).text()
      return last
    }
    shown = () =>
      last
        .split('\n')
        .filter((l) => /^prebuy_(executor_tick|launch)/.test(l))
        .join('\n')
  })
  afterAll(async () => {
    await d?.stop()
  })

  it('counts the launch tick, the held book’s block ticks and the tick after a PATCH, with a histogram and a max per kind', async () => {
    const { call, admin } = d!
    // Before any launch the series are declared but hold no tick.
    const before = await scrape()
    expect(before).toContain('# TYPE prebuy_executor_tick_seconds histogram')
    expect(before).toContain('# TYPE prebuy_executor_tick_max_seconds gauge')
    expect(count(before, 'launch')).toBe(0)

    const creator = privateKeyToAccount(generatePrivateKey()).address
    await call('POST', '/projects', undefined, {
      projectName: 'Held',
      projectUrls: ['https://held.example'],
      projectInfo: 'Held launches a token.',
      contact: '@held',
      email: 'team@held.example',
    })
    const [registration] = await admin.listReviews('registration', 'pending')
    // The deployer and, as the second fact, the symbol the project announced (docs/launch-authenticity.md).
    await admin.approveRegistration(registration!.id, { slug: 'held', creator, symbol: 'HELD', launchpad: 'doppler', chain: 'base' })
    const created = await call('POST', '/api-keys', undefined, { label: 'holder' })
    const apiKey = created.body.apiKey as string
    // A limit (FDV 1,000 USD) no launch price meets: the book is held, never bought.
    const order = { slug: 'held', maxSpendUsdc: '20', maxFdvUsdc: '1000', expiresInMs: 3_600_000 }
    expect((await call('POST', '/orders', apiKey, { items: [order] })).status).toBeLessThan(300)
    // A slowly decaying fee: a block tick every block while it decays.
    await admin.devnetLaunch({ launchpad: 'doppler', creator, name: 'Held', symbol: 'HELD', startFee: 20_000, endFee: 10_000, decaySeconds: 600 })

    let text = await waitFor(async () => {
      const t = await scrape()
      return count(t, 'held') >= 3 && t
    })
    expect(count(text, 'launch')).toBe(1)
    expect(count(text, 'orders_changed')).toBe(0)

    const patched = await call('PATCH', '/orders', apiKey, { items: [{ ...order, maxSpendUsdc: '21' }] })
    expect(patched.status).toBeLessThan(300)
    text = await waitFor(async () => {
      const t = await scrape()
      // A held tick after the PATCH's tick: the book took the edit in, then was held again.
      return count(t, 'orders_changed') >= 1 && count(t, 'held') > count(text, 'held') && t
    })
    // One edit: one tick took it in, whatever the number of held ticks around it.
    expect(count(text, 'orders_changed')).toBe(1)
    expect(count(text, 'launch')).toBe(1)
    // Nothing was bought or rebuilt: the book was prepared at the launch and kept.
    expect(count(text, 'buy')).toBe(0)
    expect(count(text, 'rebuilt')).toBe(0)
    for (const kind of ['launch', 'held', 'orders_changed']) {
      // Every tick in the +Inf bucket; the buckets resolve the 20 ms target.
      expect(sample(text, `prebuy_executor_tick_seconds_bucket{le="+Inf",chain="base",kind="${kind}"}`)).toBe(count(text, kind))
      expect(sample(text, `prebuy_executor_tick_seconds_bucket{le="0.02",chain="base",kind="${kind}"}`)).toBeDefined()
      // The longest tick is one of the kind's ticks: positive, and no more than their sum.
      const max = sample(text, `prebuy_executor_tick_max_seconds{chain="base",kind="${kind}"}`)!
      expect(max).toBeGreaterThan(0)
      const sum = sample(text, `prebuy_executor_tick_seconds_sum{chain="base",kind="${kind}"}`)!
      expect(max).toBeLessThanOrEqual(sum)
      // Every one of these ticks planned: its part after the reads is counted, and is part of its time.
      expect(sample(text, `prebuy_executor_tick_after_reads_seconds_count{chain="base",kind="${kind}"}`)).toBe(count(text, kind))
      expect(sample(text, `prebuy_executor_tick_after_reads_seconds_sum{chain="base",kind="${kind}"}`)).toBeLessThanOrEqual(sum)
    }
    expect(TICK_SECONDS_BUCKETS).toContain(0.02)
  })
})

let shown: () => string = () => ''
async function waitFor<T>(probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + 60_000
  for (;;) {
    const value = await probe()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out; last scrape:\n${shown()}`)
    await new Promise((r) => setTimeout(r, 200))
  }
}
