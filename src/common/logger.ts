import { pino, type Logger, type DestinationStream } from 'pino'
import { prettyFactory } from 'pino-pretty'
import { terminalSafe } from './terminal-safe.ts'

export type { Logger }

/**
 * Paths pino removes from every log line. Owner keys, the master secret, the passphrase and API keys must never reach
 * a log; redaction is the safety net, the first rule is not to pass them to the logger at all.
 */
export const REDACTED_PATHS = [
  'apiKey',
  '*.apiKey',
  'privateKey',
  '*.privateKey',
  'ownerKey',
  '*.ownerKey',
  'masterSecret',
  '*.masterSecret',
  'passphrase',
  '*.passphrase',
  'operatorToken',
  '*.operatorToken',
  'req.headers.authorization',
  'headers.authorization',
]

/** Longest request path a log line keeps. */
export const LOGGED_PATH_MAX = 200

/**
 * What a log line says of a request URL: its path, cut at LOGGED_PATH_MAX characters, and only the length of its query
 * string. A key sent as `?api_key=` (the API takes keys only in the Authorization header, but clients get it wrong) or
 * any other secret in a query never reaches the log, and a client cannot fill the disk with long URLs.
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const cut = path.length > LOGGED_PATH_MAX ? `${path.slice(0, LOGGED_PATH_MAX)}...(${path.length} chars)` : path
  return q === -1 ? cut : `${cut}?(query: ${url.length - q - 1} chars)`
}

interface LoggedRequest {
  method?: string
  url?: string
  ip?: string
  socket?: { remoteAddress?: string | undefined }
}

/** The `req` of fastify's request log lines: method, bounded path, client address; never headers or the query. */
const requestSerializer = (req: LoggedRequest) => ({
  method: req.method,
  url: typeof req.url === 'string' ? loggableUrl(req.url) : undefined,
  remoteAddress: req.ip ?? req.socket?.remoteAddress,
})

export interface LoggerOptions {
  level?: string
  /** Where lines go; tests pass a stream to capture them. Defaults to stdout. */
  destination?: DestinationStream
  /**
   * Human-readable lines (for a terminal: the daemon started by hand) instead of JSON (pipes, journald, CI). Escaped
   * like every operator output: a label or a project name logged with control characters cannot drive the terminal.
   */
  pretty?: boolean
}

/** pino-pretty's text for each JSON line, uncoloured and terminal-safe, written to `out`. */
export function prettyDestination(out: { write(text: string): unknown }): DestinationStream {
  const format = prettyFactory({ colorize: false, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' })
  return { write: (line: string) => void out.write(terminalSafe(format(line))) }
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base = { level: options.level ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, serializers: { req: requestSerializer } }
  const destination = options.pretty ? prettyDestination(options.destination ?? process.stdout) : options.destination
  return destination ? pino(base, destination) : pino(base)
}

/** A logger that writes nothing: for library code called without one, and for quiet tests. */
export const silentLogger: Logger = pino({ level: 'silent' })
