import { Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http'
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https'

/**
 * One JSON-RPC POST over a keep-alive `node:http(s)` agent: what the daemon's RPC transport (rpc-transport.ts) sends
 * every request through.
 *
 * Why not Node's `fetch` (undici): per request it builds a Request, a Response, Headers, a web ReadableStream with its
 * controllers and an abort-signal chain, and a request in flight outlives the young generation's scavenges (4 MB
 * semi-spaces: bound-heap-growth.ts), so they are promoted. A sampling heap profile of the held-ticks bench's daemon
 * (17,000 orders, 60 s of PATCHes; docs/execution.md §8 "The held ticks' slow ones") put 59% of the bytes its full
 * collections freed under `fetch`, and those collections' pauses (13-55 ms) are what pushed executor ticks over 20 ms.
 *
 * Why a deadline of its own instead of an `AbortSignal`: on Node 20 an `AbortSignal` outlives the young generation's
 * scavenges until a full collection (docs/execution.md §8, eleventh session), so one made per request (as viem's
 * `http` transport does, with three `Headers`) is promoted with every request: the `rpc-promotion` bench measures it.
 * A caller's own signal is still honoured.
 *
 * The body is bounded (10 MiB, viem's `maxResponseBodySize` default): a larger answer is refused without being kept.
 * It follows no redirect and asks for no compression (docs/chains.md "RPC budget").
 */
export interface RpcPostOptions {
  /** Largest response body accepted, in bytes. Default 10 MiB (viem's own bound). */
  maxBodyBytes?: number
}

const RPC_MAX_BODY_BYTES = 10 * 1024 * 1024

/** An HTTP answer, whatever its status: the transport decides what it means. */
export interface RpcAnswer {
  readonly status: number
  readonly statusText: string
  readonly headers: IncomingHttpHeaders
  readonly text: string
}

export class ResponseTooLargeError extends Error {
  override readonly name = 'ResponseTooLargeError'
  constructor(readonly maxBytes: number) {
    super(`RPC response larger than ${maxBytes} bytes`)
  }
}

/** The request outlived its deadline: it was ended (the connection destroyed) and not answered. */
export class RpcDeadlineError extends Error {
  override readonly name = 'RpcDeadlineError'
  constructor(readonly timeoutMs: number) {
    super(`RPC request took longer than ${timeoutMs} ms`)
  }
}

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason
  if (reason instanceof Error && reason.name === 'AbortError') return reason
  const error = new Error('The operation was aborted', { cause: reason })
  error.name = 'AbortError'
  return error
}

export interface RpcPoster {
  /**
   * POSTs `body` (JSON) to `url` and reads the whole answer. Rejects with RpcDeadlineError after `timeoutMs` (0: no
   * deadline), with an `AbortError` when `signal` aborts, with ResponseTooLargeError over the bound, else with the
   * connection's own error (refused, reset, cut mid-body).
   */
  post(url: URL, body: string, options: { timeoutMs: number; signal?: AbortSignal | undefined }): Promise<RpcAnswer>
  /** Closes the kept-alive connections. */
  close(): void
}

/** A poster with its own pair of keep-alive agents; rpc-http.ts makes one for the whole process. */
export function createRpcPoster(options: RpcPostOptions = {}): RpcPoster {
  const maxBodyBytes = options.maxBodyBytes ?? RPC_MAX_BODY_BYTES
  const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) }

  const post: RpcPoster['post'] = (url, body, { timeoutMs, signal }) =>
    new Promise((resolve, reject) => {
      if (signal?.aborted) {
        reject(abortError(signal))
        return
      }
      const tls = url.protocol === 'https:'
      // A URL's user and password become its Basic authorization (Node's urlToHttpOptions), as viem does for fetch.
      const request = (tls ? httpsRequest : httpRequest)(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        agent: tls ? agents.https : agents.http,
      })
      let settled = false
      let deadline: NodeJS.Timeout | undefined
      const settle = () => {
        settled = true
        if (deadline !== undefined) clearTimeout(deadline)
        signal?.removeEventListener('abort', onAbort)
      }
      const fail = (error: Error) => {
        if (settled) return
        settle()
        request.destroy()
        reject(error)
      }
      const onAbort = () => fail(abortError(signal!))
      if (timeoutMs > 0) deadline = setTimeout(() => fail(new RpcDeadlineError(timeoutMs)), timeoutMs)
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
          settle()
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: response.headers,
            text: (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size)).toString('utf8'),
          })
        })
      })
      request.end(body)
    })

  return {
    post,
    close() {
      agents.http.destroy()
      agents.https.destroy()
    },
  }
}
