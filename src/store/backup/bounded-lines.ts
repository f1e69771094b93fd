import type { Readable } from 'node:stream'
import { BackupFormatError } from './backup-format.ts'

/** What a backup's lines may weigh: far above any record prebuy writes, far below what crashes the process. */
export interface LineBounds {
  /** One line, in bytes (a database entry is one line; records are a few KB, a launch's journal entry well under 1 MB). */
  maxLineBytes: number
  /** The whole decompressed backup, in bytes (100,000 orders back up to a few hundred MB). */
  maxTotalBytes: number
}

export const BACKUP_LINE_BOUNDS: LineBounds = { maxLineBytes: 64 * 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 * 1024 }

const MiB = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`

/**
 * The lines of a byte stream ("\n", a "\r" before it dropped), refusing a line or a total above the bounds as it reads.
 * node:readline has no bound: a small gzip that inflates to one 600 MB line made it throw a RangeError past V8's
 * string limit outside any caller's try (issue "Reliability, security and API contract, round 3").
 */
export async function* boundedLines(input: Readable, bounds: LineBounds = BACKUP_LINE_BOUNDS): AsyncGenerator<string> {
  let pending: Buffer[] = []
  let pendingBytes = 0
  let total = 0
  let lineNumber = 1
  const text = (parts: Buffer[]): string => {
    const line = Buffer.concat(parts).toString('utf8')
    return line.endsWith('\r') ? line.slice(0, -1) : line
  }
  for await (const chunk of input as AsyncIterable<Buffer>) {
    total += chunk.length
    if (total > bounds.maxTotalBytes) throw new BackupFormatError(`the backup inflates to more than ${MiB(bounds.maxTotalBytes)}: not a prebuy backup`)
    let start = 0
    for (let end = chunk.indexOf(10); end !== -1; end = chunk.indexOf(10, start)) {
      if (pendingBytes + end - start > bounds.maxLineBytes) break
      pending.push(chunk.subarray(start, end))
      yield text(pending)
      pending = []
      pendingBytes = 0
      lineNumber += 1
      start = end + 1
    }
    pending.push(chunk.subarray(start))
    pendingBytes += chunk.length - start
    if (pendingBytes > bounds.maxLineBytes) {
      throw new BackupFormatError(`line ${lineNumber} is longer than ${MiB(bounds.maxLineBytes)}: not a prebuy backup`)
    }
  }
  if (pendingBytes > 0) yield text(pending)
}
