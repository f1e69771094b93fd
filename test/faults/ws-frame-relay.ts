import type { IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'
import type { Duplex } from 'node:stream'

/** What the WebSocket side of the fault proxy saw (counts since start). */
export interface WsRelayCounts {
  /** Upgrades relayed to the node (one per client socket). */
  connections: number
  /** Data frames (text or binary) from clients, relayed at once. */
  toNode: number
  /** Data frames from the node (answers and subscription pushes alike), each held (answers `latencyMs`, pushes half). */
  toClient: number
  /** Of those, subscription notifications (`eth_subscription`). */
  pushes: number
  /** Frames written to clients by `inject` (a forged node). */
  injected: number
}

export interface WsRelay {
  /** Relays one HTTP upgrade (the http server's 'upgrade' event) to the node at `target` (http:// or ws://). */
  upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, target: string): void
  counts(): WsRelayCounts
  /** The text of every complete data frame the node sent, in order (what the clients got, once held). */
  fromNode(): string[]
  /** The JSON-RPC methods clients sent, in order (a batch: each of its calls). */
  methods(): string[]
  /** The subscription ids the node handed out (eth_subscribe answers), in order. */
  subscriptions(): string[]
  /** Writes a text frame to every open client as if the node had sent it (held like the node's): a forged push. */
  inject(text: string): void
  close(): void
}

/** A complete frame found at the start of `buffer`: its length, opcode, FIN bit and unmasked payload. */
interface Frame {
  length: number
  opcode: number
  fin: boolean
  payload: Buffer
}

/** RFC 6455 §5.2: the first complete frame in `buffer`, or undefined when more bytes are needed. */
export function readFrame(buffer: Buffer): Frame | undefined {
  if (buffer.length < 2) return undefined
  const fin = (buffer[0]! & 0x80) !== 0
  const opcode = buffer[0]! & 0x0f
  const masked = (buffer[1]! & 0x80) !== 0
  let length = buffer[1]! & 0x7f
  let offset = 2
  if (length === 126) {
    if (buffer.length < 4) return undefined
    length = buffer.readUInt16BE(2)
    offset = 4
  } else if (length === 127) {
    if (buffer.length < 10) return undefined
    length = Number(buffer.readBigUInt64BE(2))
    offset = 10
  }
  const maskAt = offset
  if (masked) offset += 4
  if (buffer.length < offset + length) return undefined
  const payload = Buffer.from(buffer.subarray(offset, offset + length))
  if (masked) for (let i = 0; i < payload.length; i++) payload[i]! ^= buffer[maskAt + (i % 4)]!
  return { length: offset + length, opcode, fin, payload }
}

/** An unmasked text frame (server to client, RFC 6455 §5.1: a server never masks). */
export function textFrame(text: string): Buffer {
  const payload = Buffer.from(text, 'utf8')
  const header =
    payload.length < 126
      ? Buffer.from([0x81, payload.length])
      : payload.length < 65_536
        ? Buffer.from([0x81, 126, payload.length >> 8, payload.length & 0xff])
        : (() => {
            const h = Buffer.alloc(10)
            h[0] = 0x81
            h[1] = 127
            h.writeBigUInt64BE(BigInt(payload.length), 2)
            return h
          })()
  return Buffer.concat([header, payload])
}

const isData = (opcode: number) => opcode === 0 || opcode === 1 || opcode === 2

/**
 * The fault proxy's WebSocket side (issue 23 item 3: a node with a socket, measured at a provider's latency): each
 * upgrade is relayed byte for byte to the node's own WebSocket endpoint (anvil serves it on its HTTP port), client to
 * node at once, node to client held: the handshake's answer and JSON-RPC answers `latencyMs()`, as the HTTP side holds
 * its answers (the request reaches the node at once, so the answer carries the whole round trip), and a subscription's
 * push half of it (a push is one leg, node to client). Frames keep their order (one queue per socket: a frame is never
 * written before one that came before it). No WebSocket library: the relay only needs to find frame boundaries
 * (RFC 6455 §5.2) to hold, count and read them.
 */
export function createWsRelay(latencyMs: () => number): WsRelay {
  const counts: WsRelayCounts = { connections: 0, toNode: 0, toClient: 0, pushes: 0, injected: 0 }
  const texts: string[] = []
  const subscriptionIds: string[] = []
  const methods: string[] = []
  const open = new Set<{ client: Duplex; upstream: Socket; send: (bytes: Buffer) => void }>()

  /**
   * Writes `bytes` to `client` `holdMs` after now (default `latencyMs`), never before anything queued before it (one
   * TCP stream: frames keep their order).
   */
  function heldWriter(client: Duplex) {
    const queue: Array<{ due: number; bytes: Buffer }> = []
    let timer: NodeJS.Timeout | undefined
    const drain = () => {
      timer = undefined
      const now = performance.now()
      while (queue.length > 0 && queue[0]!.due <= now) {
        const { bytes } = queue.shift()!
        if (!client.destroyed) client.write(bytes)
      }
      if (queue.length > 0) timer = setTimeout(drain, Math.max(0, queue[0]!.due - performance.now()))
    }
    return {
      send(bytes: Buffer, holdMs: number = latencyMs()) {
        const after = queue.at(-1)?.due ?? 0
        queue.push({ due: Math.max(after, performance.now() + holdMs), bytes })
        if (timer === undefined) timer = setTimeout(drain, Math.max(0, queue[0]!.due - performance.now()))
      },
      stop() {
        if (timer) clearTimeout(timer)
        queue.length = 0
      },
    }
  }

  function upgrade(request: IncomingMessage, client: Duplex, head: Buffer, target: string): void {
    const url = new URL(target.replace(/^ws/, 'http'))
    const upstream = connect(Number(url.port || 80), url.hostname)
    const writer = heldWriter(client)
    counts.connections++
    const entry = { client, upstream, send: writer.send }
    open.add(entry)
    const end = () => {
      open.delete(entry)
      writer.stop()
      upstream.destroy()
      client.destroy()
    }
    upstream.on('error', end)
    client.on('error', end)
    upstream.on('close', () => setTimeout(() => client.end(), latencyMs()))
    client.on('close', end)
    // The handshake as the client sent it (its Host names the proxy; anvil does not check it).
    const lines = [`${request.method} ${request.url} HTTP/${request.httpVersion}`]
    for (let i = 0; i < request.rawHeaders.length; i += 2) lines.push(`${request.rawHeaders[i]}: ${request.rawHeaders[i + 1]}`)
    upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
    if (head.length > 0) upstream.write(head)

    // Client → node: at once, counted frame by frame (a frame split over chunks is counted when whole).
    let fromClient = Buffer.alloc(0)
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk)
      fromClient = Buffer.concat([fromClient, chunk])
      for (let frame = readFrame(fromClient); frame; frame = readFrame(fromClient)) {
        fromClient = fromClient.subarray(frame.length)
        if (isData(frame.opcode)) {
          counts.toNode++
          if (frame.fin && frame.opcode === 1) noteRequest(frame.payload.toString('utf8'))
        }
      }
    })

    // Node → client: the handshake's answer, then frame by frame, each held.
    let fromNode = Buffer.alloc(0)
    let handshaken = false
    upstream.on('data', (chunk: Buffer) => {
      fromNode = Buffer.concat([fromNode, chunk])
      if (!handshaken) {
        const endOfHead = fromNode.indexOf('\r\n\r\n')
        if (endOfHead < 0) return
        writer.send(fromNode.subarray(0, endOfHead + 4))
        fromNode = fromNode.subarray(endOfHead + 4)
        handshaken = true
      }
      for (let frame = readFrame(fromNode); frame; frame = readFrame(fromNode)) {
        const bytes = Buffer.from(fromNode.subarray(0, frame.length))
        fromNode = fromNode.subarray(frame.length)
        let holdMs = latencyMs()
        if (isData(frame.opcode)) {
          counts.toClient++
          // A subscription's push is one leg of a round trip (node to client), where an answer is both (the request
          // reaches the node at once here and its answer carries the whole latency, as on the HTTP side): held half.
          if (frame.fin && frame.opcode === 1 && noteText(frame.payload.toString('utf8')) === 'push') holdMs = latencyMs() / 2
        }
        writer.send(bytes, holdMs)
      }
    })
  }

  function noteRequest(text: string) {
    try {
      const message = JSON.parse(text) as { method?: string } | Array<{ method?: string }>
      for (const call of Array.isArray(message) ? message : [message]) if (typeof call.method === 'string') methods.push(call.method)
    } catch {
      // Not JSON: relayed as is.
    }
  }

  /** Notes a text frame from the node; 'push' for a subscription's push. */
  function noteText(text: string): 'push' | undefined {
    texts.push(text)
    try {
      const message = JSON.parse(text) as { method?: string; result?: unknown }
      if (message.method === 'eth_subscription') {
        counts.pushes++
        return 'push'
      }
      if (typeof message.result === 'string' && /^0x[0-9a-f]+$/i.test(message.result) && message.result.length <= 66) subscriptionIds.push(message.result)
    } catch {
      // Not JSON: relayed as is.
    }
    return undefined
  }

  return {
    upgrade,
    counts: () => ({ ...counts }),
    fromNode: () => [...texts],
    subscriptions: () => [...subscriptionIds],
    methods: () => [...methods],
    inject(text) {
      for (const { send } of open) {
        counts.injected++
        send(textFrame(text))
      }
    },
    close() {
      for (const { client, upstream } of open) {
        upstream.destroy()
        client.destroy()
      }
      open.clear()
    },
  }
}
