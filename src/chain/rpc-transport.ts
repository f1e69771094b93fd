import { createTransport, HttpRequestError, type HttpTransport, RpcRequestError, stringify, TimeoutError } from 'viem'
import { type RpcAnswer, RpcDeadlineError, type RpcPoster } from './rpc-post.ts'

/**
 * The daemon's JSON-RPC HTTP transport: viem's `createTransport` (so viem's retries, error classes and request dedupe
 * stay as they are) over rpc-post.ts, in place of viem's `http` transport.
 *
 * Why not viem's `http`, even with a lean `fetchFn` (viem 2.57, utils/rpc/http.ts): for every request it makes an
 * `AbortController` for its timeout and reads its signal, three `Headers`, and a `TextEncoder` copy of the answer to
 * measure it. On Node 20 an `AbortSignal` outlives the young generation's scavenges until a full collection
 * (docs/execution.md §8, eleventh session). Measured against a local node answering in 3 ms (8 requests in flight,
 * 4 MB semi-spaces as the daemon runs, `--trace-gc-nvp`; the `rpc-promotion` bench): viem's `http` over Node's fetch
 * promotes ~20 KB per request into the old generation, over the former lean fetch ~6.8 KB, this transport ~0.1 KB,
 * and it costs ~0.48 ms a request against 0.54-0.65. That is a launch's regime: many requests in flight while young
 * collections come every few milliseconds. (In the held-ticks bench's held phase, with a young collection every
 * ~390 ms, it did not change what reached the old generation: docs/execution.md §8 "The RPC transport of our own".)
 *
 * What it answers is what viem's `http` answers, so that everything above it (buildRequest's retry rule, read-batching's
 * refusal test, the actions' error handling) sees the same thing:
 * - a JSON-RPC error: `RpcRequestError` (its `code`; with `status` and `headers` when the HTTP status was not 2xx);
 * - a non-2xx answer without a JSON-RPC error: `HttpRequestError` with `status`, `headers` (Retry-After) and details;
 * - the deadline: `TimeoutError`; a caller's abort: the signal's `AbortError`;
 * - anything else (refused, reset, cut mid-body, over the body bound, not JSON): `HttpRequestError` with the cause.
 * Batching (`batch`): requests asked within one timer turn (`wait`, default 0 ms) go in one HTTP request of at most
 * `batchSize` (default 1,000, viem's), answers matched by id; a lone request goes as a plain request; a request with its
 * own abort signal goes alone. A batch refused whole (one JSON-RPC error, bare or in a one-element array, as geth and
 * providers answer) fails each of its requests with that error, as viem does, so read-batching.ts can fall back.
 */
export interface RpcTransportConfig {
  /** Fold requests into JSON-RPC batches (`true`: batches of 1,000 flushed on a 0 ms timer). */
  batch?: boolean | { batchSize?: number | undefined; wait?: number | undefined } | undefined
  /** Retries of a retryable failure (viem's buildRequest rule). Default: the client's, else viem's 3. */
  retryCount?: number | undefined
  /** Base of viem's exponential retry delay, in ms. Default 150 (viem's). */
  retryDelay?: number | undefined
  /** Deadline of one HTTP request, in ms. Default: the client's, else 10,000 (viem's). */
  timeout?: number | undefined
}

type RpcCall = { method: string; params?: unknown }
type RpcBody = RpcCall & { jsonrpc: '2.0'; id: number }
type RpcReply = { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: unknown } }

/** Ids unique within the process, as viem's own counter (utils/rpc/id.ts), so a batch never holds two alike. */
let nextId = 0

const isRpcError = (data: unknown): data is { error: { code: number; message: string; data?: unknown } } => {
  const error = (data as { error?: { code?: unknown; message?: unknown } } | null)?.error
  return typeof error?.code === 'number' && typeof error.message === 'string'
}

/** The answer's headers as the `Headers` viem's errors carry (buildRequest reads Retry-After): built only on failure. */
function headersOf(answer: RpcAnswer): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue
    for (const one of Array.isArray(value) ? value : [value]) headers.append(name, one)
  }
  return headers
}

/** `url` without its user and password: what errors (and so logs) name, as viem's own errors do (errors/utils.ts getUrl). */
function shown(target: URL): string {
  if (!target.username && !target.password) return target.href
  const copy = new URL(target.href)
  copy.username = ''
  copy.password = ''
  return copy.href
}

export function createRpcTransport(rpcUrl: string, poster: RpcPoster, config: RpcTransportConfig = {}): HttpTransport {
  const target = new URL(rpcUrl)
  const url = shown(target)
  const { batchSize = 1_000, wait = 0 } = typeof config.batch === 'object' ? config.batch : {}
  const batching = config.batch !== undefined && config.batch !== false

  return ({ retryCount: clientRetryCount, timeout: clientTimeout }) => {
    const retryCount = config.retryCount ?? clientRetryCount
    const timeout = clientTimeout ?? config.timeout ?? 10_000

    /** One HTTP request of `body` (one call or a batch), its answer parsed; a failure as viem's `http` throws it. */
    async function exchange(body: RpcBody | RpcBody[], signal?: AbortSignal): Promise<unknown> {
      let answer: RpcAnswer
      try {
        answer = await poster.post(target, stringify(body), { timeoutMs: timeout, signal })
      } catch (error) {
        if (error instanceof RpcDeadlineError) throw new TimeoutError({ body, url })
        if ((error as Error | undefined)?.name === 'AbortError') throw error
        throw new HttpRequestError({ body, cause: error as Error, url })
      }
      const ok = answer.status >= 200 && answer.status < 300
      let data: unknown
      try {
        data = JSON.parse(answer.text || '{}')
      } catch (error) {
        // A non-2xx answer that is not JSON (a proxy's error page) is its own error text, as viem reads it.
        if (ok) throw new HttpRequestError({ body, cause: error as Error, url })
        data = { error: answer.text }
      }
      if (ok) return data
      const error = Array.isArray(body) && Array.isArray(data) && data.length === 1 ? data[0] : data
      const { status } = answer
      if (isRpcError(error)) throw new RpcRequestError({ body, error: error.error, headers: headersOf(answer), status, url })
      throw new HttpRequestError({
        body,
        details: stringify((data as { error?: unknown } | null)?.error) || answer.statusText,
        headers: headersOf(answer),
        status,
        url,
      })
    }

    /** A reply's result, or its JSON-RPC error as viem's `http` throws it. */
    function resultOf(call: RpcCall, reply: unknown): unknown {
      if (isRpcError(reply)) throw new RpcRequestError({ body: call, error: reply.error, url })
      if (typeof reply !== 'object' || reply === null || !('result' in reply)) {
        throw new HttpRequestError({ body: call, details: `Not a JSON-RPC answer: ${stringify(reply)?.slice(0, 200)}`, url })
      }
      return (reply as RpcReply).result
    }

    // The batch being gathered: sent when it reaches batchSize or when its timer fires.
    type Waiting = { body: RpcBody; resolve(reply: unknown): void; reject(error: unknown): void }
    let gathering: Waiting[] = []
    let timer: NodeJS.Timeout | undefined

    function flush(): void {
      if (timer !== undefined) clearTimeout(timer)
      timer = undefined
      const batch = gathering
      gathering = []
      if (batch.length === 0) return
      if (batch.length === 1) {
        const [only] = batch as [Waiting]
        exchange(only.body).then(only.resolve, only.reject)
        return
      }
      exchange(batch.map((waiting) => waiting.body)).then(
        (answer) => {
          // A refusal may come bare or in a one-element array (geth).
          const data = Array.isArray(answer) && answer.length === 1 && isRpcError(answer[0]) ? answer[0] : answer
          if (Array.isArray(data)) {
            const byId = new Map<unknown, unknown>()
            for (const reply of data) byId.set((reply as RpcReply | null)?.id, reply)
            for (const waiting of batch) {
              const reply = byId.get(waiting.body.id)
              if (reply === undefined) {
                waiting.reject(new HttpRequestError({ body: waiting.body, details: `The batch's answer has no reply for id ${waiting.body.id}.`, url }))
              } else waiting.resolve(reply)
            }
            return
          }
          // One answer for the whole batch: a refusal (each request fails with it) or something else (a malformed one).
          if (isRpcError(data)) for (const waiting of batch) waiting.resolve(data)
          else {
            const error = new HttpRequestError({ body: batch.map((w) => w.body), details: `Expected ${batch.length} replies to a batch.`, url })
            for (const waiting of batch) waiting.reject(error)
          }
        },
        (error: unknown) => {
          for (const waiting of batch) waiting.reject(error)
        },
      )
    }

    function gather(body: RpcBody): Promise<unknown> {
      return new Promise((resolve, reject) => {
        gathering.push({ body, resolve, reject })
        if (gathering.length >= batchSize) flush()
        else if (timer === undefined) timer = setTimeout(flush, wait)
      })
    }

    return createTransport(
      {
        key: 'http',
        name: 'HTTP JSON-RPC',
        type: 'http',
        retryCount,
        retryDelay: config.retryDelay,
        timeout,
        async request({ method, params }, options) {
          const call: RpcCall = { method, params }
          const body: RpcBody = { jsonrpc: '2.0', id: nextId++, method, params }
          const signal = (options as { signal?: AbortSignal } | undefined)?.signal
          const reply = batching && !signal ? await gather(body) : await exchange(body, signal)
          return resultOf(call, reply) as never
        },
      },
      { fetchOptions: undefined, url },
    )
  }
}
