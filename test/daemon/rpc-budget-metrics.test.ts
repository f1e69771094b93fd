import { afterEach, describe, expect, it } from 'vitest'
import { createChainHeads } from '../../src/chain/chain-heads.ts'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { judgeReadiness } from '../../src/domain/health/readiness.ts'
import type { SocketState } from '../../src/sync/realtime-sync.ts'
import { createDaemonMetrics } from '../../daemon/health/metrics/daemon-metrics.ts'
import { openTempStore } from '../support/temp-store.ts'

function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe('RPC budget metrics', () => {
  let cleanup: Array<() => Promise<void>> = []
  afterEach(async () => {
    for (const step of cleanup.reverse()) await step()
    cleanup = []
  })

  it('expose each chain websocket: up, polling, and never connected since start', async () => {
    const temp = await openTempStore('rpc-budget-metrics')
    cleanup.push(() => temp.remove())
    const sockets: Partial<Record<ChainKey, SocketState>> = { base: 'up', second_chain: 'never_connected' }
    const metrics = createDaemonMetrics({
      store: temp.store,
      processMetrics: false,
      readiness: async () => judgeReadiness({ store: temp.store.health(), chains: [], maxLagBlocks: 30 }),
      bundlers: () => ({}),
      websockets: () => sockets,
    })
    cleanup.push(async () => metrics.stop())
    let text = await metrics.registry.metrics()
    expect(sample(text, 'prebuy_chain_websocket_up{chain="base"}')).toBe(1)
    expect(sample(text, 'prebuy_chain_websocket_up{chain="second_chain"}')).toBe(0)
    expect(sample(text, 'prebuy_chain_websocket_never_connected{chain="second_chain"}')).toBe(1)
    expect(sample(text, 'prebuy_chain_websocket_never_connected{chain="base"}')).toBe(0)
    // It drops; the never-connected mark stays until the socket delivers.
    sockets.base = 'down'
    sockets.second_chain = 'down'
    text = await metrics.registry.metrics()
    expect(sample(text, 'prebuy_chain_websocket_up{chain="base"}')).toBe(0)
    expect(sample(text, 'prebuy_chain_websocket_never_connected{chain="second_chain"}')).toBe(1)
    sockets.second_chain = 'up'
    text = await metrics.registry.metrics()
    expect(sample(text, 'prebuy_chain_websocket_never_connected{chain="second_chain"}')).toBe(0)
  })
})

describe('shared chain heads', () => {
  it('answer from a recent observation without a read, share one read among concurrent callers, and read again once aged', async () => {
    let now = 1_000
    let reads = 0
    let release: (head: bigint) => void = () => undefined
    const heads = createChainHeads({
      read: () => {
        reads++
        return new Promise<bigint>((resolve) => (release = resolve))
      },
      maxAgeMs: 500,
      now: () => now,
    })
    heads.observe('base', 10n)
    expect(await heads.head('base')).toBe(10n)
    expect(reads).toBe(0)
    now += 501
    const concurrent = [heads.head('base'), heads.head('base'), heads.head('base')]
    release(12n)
    expect(await Promise.all(concurrent)).toEqual([12n, 12n, 12n])
    expect(reads).toBe(1)
    // The read is an observation too.
    expect(await heads.head('base')).toBe(12n)
    expect(reads).toBe(1)
  })
})
