import { pino, type Logger, type DestinationStream } from 'pino'

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

export interface LoggerOptions {
  level?: string
  /** Where lines go; tests pass a stream to capture them. Defaults to stdout. */
  destination?: DestinationStream
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const base = { level: options.level ?? 'info', redact: { paths: REDACTED_PATHS, censor: '[redacted]' } }
  return options.destination ? pino(base, options.destination) : pino(base)
}

/** A logger that writes nothing: for library code called without one, and for quiet tests. */
export const silentLogger: Logger = pino({ level: 'silent' })
