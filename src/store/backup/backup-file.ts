import { constants, createReadStream, createWriteStream } from 'node:fs'
import { type FileHandle, open, rename, rm, stat } from 'node:fs/promises'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { BackupFormatError, type ParsedBackup, readBackupLines } from './backup-format.ts'
import { BACKUP_LINE_BOUNDS, boundedLines, type LineBounds } from './bounded-lines.ts'

export const pathExists = (path: string): Promise<boolean> =>
  stat(path).then(
    () => true,
    () => false,
  )

/** Reads and checks a backup file (gzip of JSON lines) from start to end; `onEntry` sees each database entry. */
export async function readBackupFile(
  file: string,
  onEntry?: (key: string, value: string) => Promise<void> | void,
  bounds: LineBounds = BACKUP_LINE_BOUNDS,
): Promise<ParsedBackup> {
  const input = createReadStream(file).pipe(createGunzip())
  try {
    return await readBackupLines(boundedLines(input, bounds), onEntry)
  } catch (error) {
    if (error instanceof BackupFormatError) throw error
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new BackupFormatError(`no backup file at ${file}`)
    if (code === 'Z_BUF_ERROR' || code === 'Z_DATA_ERROR')
      throw new BackupFormatError('the backup is not a complete gzip file (cut off, or not a prebuy backup)')
    throw error
  } finally {
    input.destroy()
  }
}

/**
 * Creates `path` for writing, mode 0600, only if nothing is there: never follows or reuses a file or a symlink someone
 * placed at that name (a symlink planted at the predictable partial name would otherwise receive the backup).
 */
async function createExclusive(path: string): Promise<FileHandle> {
  try {
    return await open(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST' || (error as NodeJS.ErrnoException).code === 'ELOOP') {
      throw new BackupFormatError(`${path} already exists (a file or a link left there): remove it, then back up again`)
    }
    throw error
  }
}

/**
 * Writes a backup stream to `file` safely: into a private temporary file next to it (created exclusively, 0600), read
 * back and checked whole, then renamed into place (a crash or a full disk never leaves a file that looks like a backup
 * but is not one). An existing file is refused unless `overwrite`.
 */
export async function writeBackupFile(stream: Readable, file: string, options: { overwrite: boolean }): Promise<ParsedBackup & { bytes: number }> {
  if (!options.overwrite && (await pathExists(file))) throw new BackupFormatError(`${file} already exists (pass --force to replace it)`)
  const partial = `${file}.partial-${process.pid}`
  const handle = await createExclusive(partial)
  try {
    await pipeline(stream, createWriteStream('', { fd: handle }))
    const parsed = await readBackupFile(partial)
    const { size } = await stat(partial)
    await rename(partial, file)
    return { ...parsed, bytes: size }
  } catch (error) {
    await handle.close().catch(() => undefined) // already closed by the stream when it finished
    await rm(partial, { force: true })
    throw error
  }
}
