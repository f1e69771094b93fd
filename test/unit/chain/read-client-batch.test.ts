import type { Server } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../../src/chain/chain-keys.ts'
import { createReadClient } from '../../../src/chain/clients.ts'
import { BATCH_CALL_MAX_CHARS } from '../../../src/chain/read-batching.ts'
import { startJsonBodyServer } from '../../support/json-body-server.ts'

/**
 * The read client (indexer and executor) puts the reads asked together in one JSON-RPC batch (READ_BATCH, issue 23
 * item 3): a launch record's round of 20-50 reads costs one HTTP request to the provider, not 20-50. A node (here a
 * plain HTTP server answering as nodes do) sees one request per round; one call's error in a batch fails that call only.
 */
let server: Server
let url: string
const bodies: unknown[] = []
// A provider that refuses every batch whole, as the fault proxy's batch cap does (one Invalid Request, HTTP 200).
let refusing: Server
let refusingUrl: string
const refusedBodies: unknown[] = []

type Call = { id: number; method: string; params?: unknown[] }
const answerOf = (call: Call) => {
  if (call.method === 'eth_getCode' && String(call.params?.[0]).toLowerCase() === '0x000000000000000000000000000000000000dead') {
    return { jsonrpc: '2.0', id: call.id, error: { code: -32000, message: 'refused (test)' } }
  }
  if (call.method === 'eth_getCode') return { jsonrpc: '2.0', id: call.id, result: '0x6001' }
  if (call.method === 'eth_blockNumber') return { jsonrpc: '2.0', id: call.id, result: '0x2a' }
  return { jsonrpc: '2.0', id: call.id, error: { code: -32601, message: `no ${call.method} here` } }
}

beforeAll(async () => {
  ;({ server, url } = await startJsonBodyServer<Call | Call[]>((body, response) => {
    bodies.push(body)
    const answer = Array.isArray(body) ? body.map(answerOf) : answerOf(body)
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  }))
  ;({ server: refusing, url: refusingUrl } = await startJsonBodyServer<Call | Call[]>((body, response) => {
    refusedBodies.push(body)
    const answer = Array.isArray(body)
      ? { jsonrpc: '2.0', id: null, error: { code: -32600, message: 'batch requests are not allowed on this plan (test)' } }
      : answerOf(body)
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer))
  }))
})
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
  await new Promise((resolve) => refusing.close(resolve))
})

const chainAt = (rpcUrl: string) =>
  ({
    key: 'base',
    chainId: 8453,
    rpcUrl,
    wsUrl: 'ws://127.0.0.1:1',
    addresses: { multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11' },
  }) as unknown as ChainConfig

describe('the read client batches the reads asked together', () => {
  it('one HTTP request for a round of reads; a lone read after it is a request of its own; each call keeps its own answer or error', async () => {
    const client = createReadClient(chainAt(url))
    bodies.length = 0
    const addresses = ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002'] as const
    const round = await Promise.allSettled([
      client.getBlockNumber({ cacheTime: 0 }),
      ...addresses.map((address) => client.getCode({ address, blockNumber: 7n })),
      client.getCode({ address: '0x000000000000000000000000000000000000dEaD', blockNumber: 7n }),
    ])
    expect(bodies).toHaveLength(1)
    expect(Array.isArray(bodies[0])).toBe(true)
    expect((bodies[0] as Call[]).map((c) => c.method)).toEqual(['eth_blockNumber', 'eth_getCode', 'eth_getCode', 'eth_getCode'])
    expect(round.slice(0, 3)).toEqual([
      { status: 'fulfilled', value: 42n },
      { status: 'fulfilled', value: '0x6001' },
      { status: 'fulfilled', value: '0x6001' },
    ])
    expect(round[3]!.status).toBe('rejected')
    expect(String((round[3] as PromiseRejectedResult).reason)).toContain('refused (test)')

    await client.getCode({ address: addresses[0], blockNumber: 8n })
    expect(bodies).toHaveLength(2)
  })

  it('a provider that refuses batches: the refused reads are asked again alone and succeed, and every read after is alone', async () => {
    const fallbacks: string[] = []
    const client = createReadClient(chainAt(refusingUrl), { onBatchFallback: ({ method }) => fallbacks.push(method) })
    const addresses = ['0x0000000000000000000000000000000000000001', '0x0000000000000000000000000000000000000002'] as const
    const round = await Promise.all([client.getBlockNumber({ cacheTime: 0 }), ...addresses.map((address) => client.getCode({ address, blockNumber: 7n }))])
    expect(round).toEqual([42n, '0x6001', '0x6001'])
    expect(fallbacks).toHaveLength(1)
    const afterFallback = refusedBodies.length
    await Promise.all(addresses.map((address) => client.getCode({ address, blockNumber: 8n })))
    expect(refusedBodies.slice(afterFallback).map((body) => Array.isArray(body))).toEqual([false, false])
    expect(fallbacks).toHaveLength(1)
  })

  it('a call with more data than BATCH_CALL_MAX_CHARS goes alone (a batch is one HTTP body, and nodes cap bodies)', async () => {
    const client = createReadClient(chainAt(url))
    bodies.length = 0
    const small = `0x${'00'.repeat(100)}` as const
    const big = `0x${'00'.repeat(BATCH_CALL_MAX_CHARS / 2)}` as const
    const to = '0x0000000000000000000000000000000000000003'
    await Promise.allSettled([client.call({ to, data: small }), client.call({ to, data: big }), client.getBlockNumber({ cacheTime: 0 })])
    const lone = bodies.filter((b) => !Array.isArray(b)) as Call[]
    const batched = bodies.filter((b) => Array.isArray(b)) as Call[][]
    expect(lone.map((c) => c.method)).toEqual(['eth_call'])
    expect((lone[0]!.params![0] as { data: string }).data).toBe(big)
    expect(batched.map((b) => b.map((c) => c.method))).toEqual([['eth_call', 'eth_blockNumber']])
  })
})
