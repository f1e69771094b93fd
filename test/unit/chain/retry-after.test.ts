import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../../src/chain/chain-keys.ts'
import { createReadClient } from '../../../src/chain/clients.ts'
import { startJsonBodyServer } from '../../support/json-body-server.ts'

/**
 * A provider over its rate limit answers HTTP 429 with Retry-After (seconds): the daemon's read client waits that long
 * before asking again (an exponential backoff alone retries after 150-300 ms, into the same limit).
 */
let server: Server
let url: string
const arrivals: number[] = []

beforeAll(async () => {
  ;({ server, url } = await startJsonBodyServer<{ id: number } | { id: number }[]>((body, response) => {
    arrivals.push(Date.now())
    // The read client batches (READ_BATCH): requests asked together come as a batch, a lone one as a plain request.
    const answer = (each: (id: number) => object) => JSON.stringify(Array.isArray(body) ? body.map((b) => each(b.id)) : each(body.id))
    if (arrivals.length === 1) {
      // Providers answer a rate-limited request with one error, batch or not (the fault proxy's 429 does the same).
      response
        .writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: 429, message: 'Too Many Requests' } }))
      return
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end(answer((id) => ({ jsonrpc: '2.0', id, result: '0x2a' })))
  }))
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

describe('a 429 with Retry-After', () => {
  it('is retried after the seconds the provider names, and the read then succeeds', async () => {
    const chain = {
      key: 'base',
      chainId: 8453,
      rpcUrl: url,
      wsUrl: 'ws://127.0.0.1:1',
      addresses: { multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11' },
    } as unknown as ChainConfig
    const head = await createReadClient(chain).getBlockNumber({ cacheTime: 0 })
    expect(head).toBe(42n)
    expect(arrivals).toHaveLength(2)
    // Retry-After: 1 → at least a second between the refused request and its retry (a lower bound, not a race).
    expect(arrivals[1]! - arrivals[0]!).toBeGreaterThanOrEqual(990)
  })
})
