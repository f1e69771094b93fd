/** The daemon could not be reached (or refused the stream) before the screen's first snapshot. */
export class StreamUnavailableError extends Error {
  override name = 'StreamUnavailableError'
}
