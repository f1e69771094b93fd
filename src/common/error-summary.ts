/**
 * One short line for a log or a stored reason, whatever was thrown: viem's errors carry the whole request (a dev-buy
 * launch's calldata, every operation) in `message`, tens of kilobytes a line; their `shortMessage` is the line that
 * says what failed. Bounded to `max` characters.
 */
export function errorSummary(error: unknown, max = 300): string {
  const short = typeof error === 'object' && error !== null && typeof (error as { shortMessage?: unknown }).shortMessage === 'string'
  const text = short ? (error as { shortMessage: string }).shortMessage : error instanceof Error ? error.message : String(error)
  const line = (text.split('\n').find((l) => l.trim() !== '') ?? '').trim()
  const named = error instanceof Error && error.name !== 'Error' ? `${error.name}: ${line}` : line
  return bounded(named, max)
}

/** `text` cut to at most `max` characters (an ellipsis marks the cut). */
export const bounded = (text: string, max = 300): string => (text.length > max ? `${text.slice(0, max - 1)}…` : text)
