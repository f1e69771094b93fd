import { ADMIN_STREAMS } from '../admin-api/admin-routes.ts'
import type { ConsoleEvent, EventScope } from '../admin-api/console-events.ts'

/** What a console screen hears from its stream: events, and whether the daemon is there. */
export type StreamSignal =
  | { type: 'connected' }
  | { type: 'disconnected'; message: string; retryInMs: number }
  | { type: 'event'; id: string; event: ConsoleEvent }

export interface EventStreamOptions {
  /** Where the daemon is, asked again before every connection (a restarted daemon may have moved). */
  locate(): Promise<{ adminUrl: string; operatorToken: string }>
  scope: EventScope
  slug?: string
  onSignal(signal: StreamSignal): void
  /** Stops the stream (and every reconnection). */
  signal: AbortSignal
  fetch?: typeof fetch
  /** Reconnection delay: from `minDelayMs`, doubled per failed attempt up to `maxDelayMs`. */
  minDelayMs?: number
  maxDelayMs?: number
  /** Nothing at all (not even the 15-s heartbeat) for this long: the connection is dead, reconnect. */
  idleMs?: number
}

/** One server-sent event as parsed (https://html.spec.whatwg.org/multipage/server-sent-events.html#event-stream-interpretation). */
export interface SseMessage {
  id?: string
  event: string
  data: string
}

/** Incremental SSE parser: feed it text as it arrives, it returns the messages completed by that text. */
export function createSseParser(): (text: string) => SseMessage[] {
  let buffer = ''
  let id: string | undefined
  let event = ''
  let data: string[] = []
  return (text) => {
    buffer += text
    const out: SseMessage[] = []
    let newline = buffer.search(/\r\n|\r|\n/)
    // A '\r' ending the text may be the first half of a '\r\n' split across chunks: wait for the next one.
    while (newline >= 0 && !(newline === buffer.length - 1 && buffer[newline] === '\r')) {
      const line = buffer.slice(0, newline)
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1))
      if (line === '') {
        if (data.length > 0) out.push({ ...(id === undefined ? {} : { id }), event: event || 'message', data: data.join('\n') })
        event = ''
        data = []
      } else if (!line.startsWith(':')) {
        const colon = line.indexOf(':')
        const field = colon < 0 ? line : line.slice(0, colon)
        const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '')
        if (field === 'data') data.push(value)
        else if (field === 'event') event = value
        else if (field === 'id') id = value
      }
      newline = buffer.search(/\r\n|\r|\n/)
    }
    return out
  }
}

/** One line: fetch's "fetch failed" says nothing, its cause's code (ECONNREFUSED, ...) does. */
function describeFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const code = (error.cause as NodeJS.ErrnoException | undefined)?.code
  return code ? `cannot reach the daemon (${code})` : error.message
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms)
    const cancel = () => {
      clearTimeout(timer)
      resolve()
    }
    signal.addEventListener('abort', cancel, { once: true })
  })

/**
 * Follows the daemon's event stream until `signal` aborts: reconnects (with `Last-Event-ID`, so nothing is missed while
 * the daemon still holds it) whenever the daemon goes away, says so through `onSignal`, and never throws.
 */
export async function followEventStream(options: EventStreamOptions): Promise<void> {
  const doFetch = options.fetch ?? fetch
  const minDelay = options.minDelayMs ?? 500
  const maxDelay = options.maxDelayMs ?? 5_000
  const idleMs = options.idleMs ?? 45_000
  let lastEventId: string | undefined
  let delay = minDelay
  while (!options.signal.aborted) {
    const attempt = new AbortController()
    const stop = () => attempt.abort()
    options.signal.addEventListener('abort', stop, { once: true })
    let idle: NodeJS.Timeout | undefined
    const touch = () => {
      clearTimeout(idle)
      idle = setTimeout(() => attempt.abort(new Error(`no data from the daemon for ${Math.round(idleMs / 1000)} s`)), idleMs)
    }
    let reason = 'the stream ended'
    try {
      const { adminUrl, operatorToken } = await options.locate()
      const url = new URL(ADMIN_STREAMS.events.path, adminUrl)
      url.searchParams.set('scope', options.scope)
      if (options.slug !== undefined) url.searchParams.set('slug', options.slug)
      touch()
      const response = await doFetch(url, {
        headers: { authorization: `Bearer ${operatorToken}`, accept: 'text/event-stream', ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
        signal: attempt.signal,
      })
      if (!response.ok || !response.body) {
        const body = (await response.text().catch(() => '')) || `HTTP ${response.status}`
        let message = body
        try {
          message = (JSON.parse(body) as { message?: string }).message ?? body
        } catch {
          // not JSON
        }
        throw new Error(`the daemon refused the event stream (${response.status}): ${message}`)
      }
      options.onSignal({ type: 'connected' })
      delay = minDelay
      const parse = createSseParser()
      const decoder = new TextDecoder()
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        touch()
        for (const message of parse(decoder.decode(chunk, { stream: true }))) {
          if (message.id !== undefined) lastEventId = message.id
          let event: ConsoleEvent
          try {
            event = JSON.parse(message.data) as ConsoleEvent
          } catch {
            continue
          }
          options.onSignal({ type: 'event', id: message.id ?? '', event })
        }
      }
    } catch (error) {
      reason = describeFailure(attempt.signal.reason instanceof Error ? attempt.signal.reason : error)
    } finally {
      clearTimeout(idle)
      options.signal.removeEventListener('abort', stop)
    }
    if (options.signal.aborted) return
    options.onSignal({ type: 'disconnected', message: reason, retryInMs: delay })
    await sleep(delay, options.signal)
    delay = Math.min(maxDelay, delay * 2)
  }
}
