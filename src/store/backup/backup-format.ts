import { createHash, type Hash } from 'node:crypto'

/**
 * A prebuy backup: gzip of JSON lines. The first line is the header, then one line per file of the data dir the backup
 * carries (the encrypted master secret, config.json), one per database entry (raw key and value, sublevel prefixes
 * included), and a trailer with the counts and a SHA-256 over every line before it, so a truncated or altered file is
 * refused before anything is restored.
 */
export const BACKUP_FORMAT = 'prebuy-backup'
export const BACKUP_VERSION = 1

export interface BackupHeader {
  format: typeof BACKUP_FORMAT
  version: typeof BACKUP_VERSION
  createdAt: string
  /** The store layout version the entries are in (the daemon migrates an older one at start). */
  storeVersion: number
}

/** A data dir file, by its path relative to the data dir (`secrets/master-secret.json`, `config.json`). */
export interface BackupFile {
  path: string
  /** UTF-8 content. */
  content: string
}

export interface BackupTrailer {
  end: true
  files: number
  entries: number
  /** Hex SHA-256 of every line before the trailer, newlines included. */
  sha256: string
}

type BackupLine = { file: BackupFile } | { entry: [string, string] }

/** The data dir files a backup may carry; nothing else is written by a restore (no path can escape the data dir). */
export const BACKUP_FILE_PATHS = ['secrets/master-secret.json', 'secrets/passphrase', 'config.json'] as const

export class BackupFormatError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'BackupFormatError'
  }
}

/** Builds a backup's lines in order; `finish` gives the trailer line. */
export function createBackupWriter(header: Omit<BackupHeader, 'format' | 'version'>): {
  header(): string
  file(file: BackupFile): string
  entry(key: string, value: string): string
  finish(): string
} {
  const hash = createHash('sha256')
  let files = 0
  let entries = 0
  const line = (value: unknown): string => {
    const text = `${JSON.stringify(value)}\n`
    hash.update(text)
    return text
  }
  return {
    header: () => line({ format: BACKUP_FORMAT, version: BACKUP_VERSION, ...header } satisfies BackupHeader),
    file(file) {
      if (!(BACKUP_FILE_PATHS as readonly string[]).includes(file.path)) throw new BackupFormatError(`a backup cannot carry ${file.path}`)
      files += 1
      return line({ file } satisfies BackupLine)
    },
    entry(key, value) {
      entries += 1
      return line({ entry: [key, value] } satisfies BackupLine)
    },
    finish: () => `${JSON.stringify({ end: true, files, entries, sha256: hash.digest('hex') } satisfies BackupTrailer)}\n`,
  }
}

export interface ParsedBackup {
  header: BackupHeader
  files: BackupFile[]
  entries: number
}

/**
 * Checks a backup's lines in one pass: header first, known files only, every entry a pair of strings, the trailer last
 * with matching counts and hash. `onEntry` sees each entry as it is read (the restore writes them to a staging
 * database); the caller must discard what it received when this throws.
 */
export async function readBackupLines(lines: AsyncIterable<string>, onEntry?: (key: string, value: string) => Promise<void> | void): Promise<ParsedBackup> {
  const hash: Hash = createHash('sha256')
  let header: BackupHeader | undefined
  let trailer: BackupTrailer | undefined
  const files: BackupFile[] = []
  let entries = 0
  let lineNumber = 0
  for await (const raw of lines) {
    lineNumber += 1
    if (raw === '') continue
    if (trailer) throw new BackupFormatError(`line ${lineNumber}: data after the end of the backup`)
    let value: unknown
    try {
      value = JSON.parse(raw)
    } catch {
      throw new BackupFormatError(`line ${lineNumber}: not JSON (is this a prebuy backup, and complete?)`)
    }
    const record = value as Record<string, unknown>
    if (!header) {
      if (record.format !== BACKUP_FORMAT) throw new BackupFormatError('not a prebuy backup (its first line is not a prebuy-backup header)')
      if (record.version !== BACKUP_VERSION)
        throw new BackupFormatError(`backup format version ${String(record.version)} is not one this prebuy reads (${BACKUP_VERSION})`)
      if (typeof record.storeVersion !== 'number' || typeof record.createdAt !== 'string') throw new BackupFormatError('the backup header is incomplete')
      header = record as unknown as BackupHeader
      hash.update(`${raw}\n`)
      continue
    }
    if (record.end === true) {
      trailer = record as unknown as BackupTrailer
      continue
    }
    hash.update(`${raw}\n`)
    if (record.file !== undefined) {
      const file = record.file as Partial<BackupFile>
      if (typeof file.path !== 'string' || typeof file.content !== 'string' || !(BACKUP_FILE_PATHS as readonly string[]).includes(file.path)) {
        throw new BackupFormatError(`line ${lineNumber}: a file the backup may not carry`)
      }
      files.push({ path: file.path, content: file.content })
      continue
    }
    const entry = record.entry
    if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string' || typeof entry[1] !== 'string') {
      throw new BackupFormatError(`line ${lineNumber}: not a database entry`)
    }
    // Every value the store writes is JSON text (open-store: every sublevel is JSON-encoded): one that is not would
    // restore and then break the daemon at its first read of that record.
    if (entry[0] === '') throw new BackupFormatError(`line ${lineNumber}: a database entry without a key`)
    try {
      JSON.parse(entry[1])
    } catch {
      throw new BackupFormatError(`line ${lineNumber}: the value of ${JSON.stringify(entry[0].slice(0, 80))} is not JSON, which the database cannot read`)
    }
    entries += 1
    await onEntry?.(entry[0], entry[1])
  }
  if (!header) throw new BackupFormatError('the backup is empty')
  if (!trailer) throw new BackupFormatError('the backup is incomplete (no end marker): it was cut off while being written or copied')
  if (trailer.entries !== entries || trailer.files !== files.length) {
    throw new BackupFormatError(
      `the backup is incomplete: ${entries} entries and ${files.length} files where its end marker says ${trailer.entries} and ${trailer.files}`,
    )
  }
  if (trailer.sha256 !== hash.digest('hex')) throw new BackupFormatError('the backup is corrupt (its checksum does not match its content)')
  return { header, files, entries }
}
