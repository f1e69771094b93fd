import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AnvilProcess, startAnvil } from '../sync/anvil-process.ts'
import { readFrame } from './ws-frame-relay.ts'
import { type FaultProxy, startFaultProxy } from './rpc-fault-proxy.ts'

const LATENCY_MS = 40

/** A client frame: masked, as RFC 6455 §5.3 requires of every client (the node refuses an unmasked one). */
function maskedTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8')
  const mask = randomBytes(4)
  const header = payload.length < 126 ? Buffer.from([0x81, 0x80 | payload.length]) : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff])
  const masked = Buffer.from(payload)
  for (let i = 0; i < masked.length; i++) masked[i]! ^= mask[i % 4]!
  return Buffer.concat([header, mask, masked])
}

/** A bare WebSocket client on a TCP socket: every text frame received, with its arrival time (performance clock). */
async function rawClient(url: string) {
  const { hostname, port } = new URL(url)
  const socket: Socket = connect(Number(port), hostname)
  const received: Array<{ text: string; at: number }> = []
  const waiters: Array<() => void> = []
  let buffer = Buffer.alloc(0)
  let handshaken = false
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject)
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      if (!handshaken) {
        const end = buffer.indexOf('\r\n\r\n')
        if (end < 0) return
        if (!buffer.subarray(0, end).toString().startsWith('HTTP/1.1 101')) reject(new Error(buffer.toString()))
        buffer = buffer.subarray(end + 4)
        handshaken = true
        resolve()
      }
      for (let frame = readFrame(buffer); frame; frame = readFrame(buffer)) {
        buffer = buffer.subarray(frame.length)
        if (frame.opcode === 1) received.push({ text: frame.payload.toString('utf8'), at: performance.now() })
      }
      for (const wake of waiters.splice(0)) wake()
    })
    socket.write(
      [
        'GET / HTTP/1.1',
        `Host: ${hostname}:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    )
  })
  return {
    received,
    send: (value: unknown) => socket.write(maskedTextFrame(JSON.stringify(value))),
    /** Resolves once `count` text frames arrived in all (no timer: the test's own timeout bounds it). */
    async until(count: number) {
      while (received.length < count) await new Promise<void>((resolve) => waiters.push(resolve))
    },
    close: () => socket.destroy(),
  }
}

describe('the fault proxy relays WebSocket frames (real anvil)', () => {
  let anvil: AnvilProcess
  let proxy: FaultProxy
  beforeAll(async () => {
    anvil = await startAnvil()
    proxy = await startFaultProxy({ target: anvil.rpcUrl, rate: 0, limits: { latencyMs: LATENCY_MS } })
  })
  afterAll(async () => {
    await proxy?.close()
    await anvil?.stop()
  })

  it('relays answers and pushes in the node’s order, answers held the latency and pushes half, and counts them', async () => {
    const client = await rawClient(proxy.wsUrl)
    const sentAt = new Map<number, number>()
    for (let id = 1; id <= 5; id++) {
      sentAt.set(id, performance.now())
      client.send({ jsonrpc: '2.0', id, method: 'eth_blockNumber', params: [] })
    }
    await client.until(5)
    // Each answer came no sooner than the latency after its request left (the node answers after it is asked).
    for (const { text, at } of client.received) {
      const { id } = JSON.parse(text) as { id: number }
      expect(at - sentAt.get(id)!).toBeGreaterThanOrEqual(LATENCY_MS - 1)
    }
    client.send({ jsonrpc: '2.0', id: 6, method: 'eth_subscribe', params: ['newHeads'] })
    await client.until(6)
    const subscription = (JSON.parse(client.received[5]!.text) as { result: string }).result
    expect(proxy.ws.subscriptions()).toContain(subscription)
    // Three blocks mined over HTTP (direct): each head is pushed, and reaches the client no sooner than half the latency
    // after its block was asked for (a push is one leg of a round trip: ws-frame-relay.ts).
    const minedAt: number[] = []
    for (let i = 0; i < 3; i++) {
      minedAt.push(performance.now())
      await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'evm_mine', params: [] }),
      })
    }
    await client.until(9)
    const pushes = client.received.slice(6)
    for (const [i, push] of pushes.entries()) {
      const message = JSON.parse(push.text) as { method: string; params: { subscription: string; result: { number: string } } }
      expect(message.method).toBe('eth_subscription')
      expect(message.params.subscription).toBe(subscription)
      expect(push.at - minedAt[i]!).toBeGreaterThanOrEqual(LATENCY_MS / 2 - 1)
    }
    // In order: the client got exactly what the node sent, in the node's order (blocks ascending among the pushes).
    expect(client.received.map((r) => r.text)).toEqual(proxy.ws.fromNode().slice(-9))
    const numbers = pushes.map((p) => BigInt((JSON.parse(p.text) as { params: { result: { number: string } } }).params.result.number))
    expect(numbers).toEqual([...numbers].sort((a, b) => (a < b ? -1 : 1)))
    expect(proxy.ws.counts()).toMatchObject({ connections: 1, toNode: 6, toClient: 9, pushes: 3 })
    expect(proxy.ws.methods()).toEqual([...Array(5).fill('eth_blockNumber'), 'eth_subscribe'])

    // A forged push reaches the client as the node's would.
    proxy.ws.inject(JSON.stringify({ jsonrpc: '2.0', method: 'eth_subscription', params: { subscription, result: 'forged' } }))
    await client.until(10)
    expect(client.received[9]!.text).toContain('forged')
    expect(proxy.ws.counts().injected).toBe(1)
    client.close()
  })
})
