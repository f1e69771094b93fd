import { createReadStream, createWriteStream } from 'node:fs'
import { rename, rm, stat } from 'node:fs/promises'
import { createInterface } from 'node:readline'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { BackupFormatError, type ParsedBackup, readBackupLines } from './backup-format.ts'

export const pathExists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  )

/** Reads and checks a backup file (gzip of JSON lines) from start to end; `onEntry` sees each database entry. */
export async function readBackupFile(file: string, onEntry?: (key: string, value: string) => Promise<void> | void): Promise<ParsedBackup> {
  const input = createReadStream(file).pipe(createGunzip())
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
  try {
    return await readBackupLines(lines, onEntry)
  } catch (error) {
    if (error instanceof BackupFormatError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new BackupFormatError(`no backup file at ${file}`)
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR')
      throw new BackupFormatError('the backup is not a complete gzip file (cut off, or not a prebuy backup)')
    throw error
  } finally {
    lines.close()
    input.destroy()
  }
}

/**
 * Writes a backup stream to `file` safely: into a private temporary file next to it, read back and checked whole, then
 * renamed into place (a crash or a full disk never leaves a file that looks like a backup but is not one). An existing
 * file is refused unless `overwrite`.
 */
export async function writeBackupFile(stream: Readable, file: string, options: { overwrite: boolean }): Promise<ParsedBackup & { bytes: number }> {
  if (!options.overwrite && (await pathExists(file))) throw new BackupFormatError(`${file} already exists (pass --force to replace it)`)
  const partial = `${file}.partial-${process.pid}`
  try {
    await pipeline(stream, createWriteStream(partial, { mode: 0o600 }))
    const parsed = await readBackupFile(partial)
    const { size } = await stat(partial)
    await rename(partial, file)
    return { ...parsed, bytes: size }
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
}
