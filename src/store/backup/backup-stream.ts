import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { createGzip } from 'node:zlib'
import type { Store } from '../open-store.ts'
import { BACKUP_FILE_PATHS, type BackupFile, createBackupWriter } from './backup-format.ts'

/** The data dir files a backup carries, those that exist: the encrypted master secret (without it the wallets are lost), the devnet passphrase, config.json. */
async function dataDirFiles(dataDir: string): Promise<BackupFile[]> {
  const files: BackupFile[] = []
  for (const path of BACKUP_FILE_PATHS) {
    try {
      files.push({ path, content: await readFile(join(dataDir, path), 'utf8') })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return files
}

/**
 * A consistent backup of a running (or stopped) store as a gzip stream: the database as of the moment this is called
 * (one LevelDB snapshot: writes landing meanwhile are in the next backup, never half in this one) and the data dir
 * files a restore needs. Reads lazily: the consumer's pace sets the memory used.
 */
export function backupStream(store: Store, dataDir: string, now: () => Date = () => new Date()): Readable {
  const entries = store.snapshotEntries()
  async function* lines(): AsyncGenerator<string> {
    const writer = createBackupWriter({ createdAt: now().toISOString(), storeVersion: (await store.sub.meta.get('storeVersion')) ?? 1 })
    yield writer.header()
    for (const file of await dataDirFiles(dataDir)) yield writer.file(file)
    let chunk = ''
    for await (const [key, value] of entries) {
      chunk += writer.entry(key, value)
      if (chunk.length >= 64 * 1024) {
        yield chunk
        chunk = ''
      }
    }
    yield chunk + writer.finish()
  }
  return Readable.from(lines(), { objectMode: false }).pipe(createGzip())
}
