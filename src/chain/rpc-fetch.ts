import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/**
 * The `fetchFn` of the daemon's viem `http` transports: one JSON-RPC POST over a keep-alive `node:http(s)` agent.
 *
 * Why not Node's `fetch` (undici): per request it builds a Request, a Response, Headers, a web ReadableStream with its
 * controllers and an abort-signal chain, and a request in flight outlives the young generation's scavenges (4 MB
 * semi-spaces: bound-heap-growth.ts), so they are promoted. A sampling heap profile of the held-ticks bench's daemon
 * (17,000 orders, 60 s of PATCHes; docs/execution.md §8 "The held ticks' slow ones") put 59% of the bytes its full
 * collections freed under `fetch`, and those collections' pauses (13-55 ms) are what pushed executor ticks over 20 ms.
 *
 * What viem reads of the answer (viem utils/rpc/http.ts, 2.57): `ok`, `status`, `statusText`, `headers.get` (the
 * Content-Type, the Content-Length), `body` (null: viem then calls `text()`), `text()`. The body is bounded here, as
 * viem bounds it (10 MiB, its `maxResponseBodySize` default): a larger answer is refused without being kept.
 * Abort (viem's timeout, a caller's signal) destroys the request and rejects with an `AbortError`, the name viem tests.
 */
export interface RpcFetchOptions {
  /** Largest response body accepted, in bytes. Default 10 MiB (viem's own bound). */
  maxBodyBytes?: number
}

export const RPC_MAX_BODY_BYTES = 10 * 1024 * 1024

/** The answer's part viem reads (see above); cast to `Response` at the boundary. */
export interface RpcFetchResponse {
  readonly ok: boolean
  readonly status: number
  readonly statusText: string
  readonly headers: { get(name: string): string | null }
  readonly body: null
  text(): Promise<string>
}

export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError'
  constructor(readonly maxBytes: number) {
    super(`RPC response larger than ${maxBytes} bytes`)
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  const error = new Error('The operation was aborted', { cause: reason })
  error.name = 'AbortError'
  return error
}

/**
 * A fetch-shaped function for viem's `http(url, { fetchFn })`, with its own pair of keep-alive agents (closed with
 * `close()`); rpc-http.ts makes one for the whole process.
 */
export function createRpcFetch(options: RpcFetchOptions = {}): {
  fetch: (input: string | URL | Request, init?: RequestInit) => Promise<Response>
  close(): void
} {
  const maxBodyBytes = options.maxBodyBytes ?? RPC_MAX_BODY_BYTES
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

  const send = (input: string | URL | Request, init: RequestInit = {}): Promise<RpcFetchResponse> =>
    new Promise((resolve, reject) => {
      const url = typeof input === 'string' ? new URL(input) : input instanceof URL ? input : new URL(input.url)
      const signal = init.signal ?? undefined
      if (signal?.aborted) {
        reject(abortError(signal))
        return
      }
      const body = typeof init.body === 'string' ? init.body : init.body == null ? '' : String(init.body)
      const headers: Record<string, string> = { ...(init.headers as Record<string, string> | undefined) }
      headers['content-length'] = String(Buffer.byteLength(body))
      const tls = url.protocol === 'https:'
      const request = (tls ? httpsRequest : httpRequest)(url, {
        method: init.method ?? 'POST',
        headers,
        agent: tls ? agents.https : agents.http,
      })
      let settled = false
      const fail = (error: Error) => {
        if (settled) return
        settled = true
        signal?.removeEventListener('abort', onAbort)
        request.destroy()
        reject(error)
      }
      const onAbort = () => fail(abortError(signal!))
      signal?.addEventListener('abort', onAbort, { once: true })
      request.on('error', fail)
      request.on('response', (response: IncomingMessage) => {
        const declared = Number(response.headers['content-length'])
        if (declared > maxBodyBytes) {
          response.resume()
          fail(new ResponseTooLargeError(maxBodyBytes))
          return
        }
        const chunks: Buffer[] = []
        let size = 0
        response.on('data', (chunk: Buffer) => {
          size += chunk.length
          if (size > maxBodyBytes) fail(new ResponseTooLargeError(maxBodyBytes))
          else chunks.push(chunk)
        })
        response.on('error', fail)
        // A connection that closes before the body's end (the node or a proxy gone mid-answer).
        response.on('close', () => {
          if (!response.complete) fail(new Error('RPC response ended before its body was complete'))
        })
        response.on('end', () => {
          if (settled) return
          settled = true
          signal?.removeEventListener('abort', onAbort)
          const text = (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8')
          const status = response.statusCode ?? 0
          const raw = response.headers
          resolve({
            ok: status >= 200 && status < 300,
            status,
            statusText: response.statusMessage ?? '',
            headers: {
              get(name: string) {
                const value = raw[name.toLowerCase()]
                return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value
              },
            },
            body: null,
            text: () => Promise.resolve(text),
          })
        })
      })
      request.end(body)
    })

  return {
    fetch: (input, init) => send(input, init) as unknown as Promise<Response>,
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}
