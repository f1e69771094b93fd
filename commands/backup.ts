import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { Args, Flags } from '@oclif/core'
import { OperatorCommand } from '../src/admin-client/cli/operator-command.ts'
import { DaemonNotFoundError } from '../src/admin-client/locate-daemon.ts'
import { BackupFormatError } from '../src/store/backup/backup-format.ts'
import { writeBackupFile } from '../src/store/backup/backup-file.ts'
import { backupStream } from '../src/store/backup/backup-stream.ts'
import { openStore } from '../src/store/open-store.ts'

export interface BackupResult {
  file: string
  bytes: number
  entries: number
  files: string[]
  storeVersion: number
  createdAt: string
  /** `daemon`: a snapshot taken by the running daemon; `offline`: read from the stopped data dir. */
  source: 'daemon' | 'offline'
}

export default class Backup extends OperatorCommand {
  static override description = `Write a consistent backup of the data dir to a file (gzip, mode 0600)
A running daemon takes it from one database snapshot without stopping (orders, keys, fills and journal as of one instant); with no daemon running, it reads the data dir directly. The backup also carries the encrypted master secret (without it the wallets are lost), the devnet passphrase file if there is one, and config.json (which may hold RPC provider keys): keep it private, and keep PREBUY_PASSPHRASE apart from it. Devnet chain state is not included. The file is checked end to end before it gets its name.`
  static override examples = [
    '<%= config.bin %> backup /var/backups/prebuy-$(date +%F).jsonl.gz',
    '<%= config.bin %> backup ./before-upgrade.jsonl.gz --force --json',
  ]
  static override args = { file: Args.string({ required: true, description: 'where to write the backup' }) }
  static override flags = { force: Flags.boolean({ description: 'replace the file if it exists', default: false }) }

  async run(): Promise<BackupResult> {
    const { args, flags } = await this.parse(Backup)
    const file = resolve(args.file)
    const dataDir = this.dataDir(flags)
    let source: BackupResult['source'] = 'daemon'
    let written: Awaited<ReturnType<typeof writeBackupFile>>
    try {
      try {
        const client = await this.adminClient(flags)
        written = await writeBackupFile(await client.backup(), file, { overwrite: flags.force })
      } catch (error) {
        if (!(error instanceof DaemonNotFoundError)) throw error
        source = 'offline'
        if (!existsSync(join(dataDir, 'db'))) throw new BackupFormatError(`no daemon is running for ${dataDir} and it holds no database (wrong --data-dir?)`)
        const store = await openStore({ dataDir }).catch((cause: Error) => {
          throw new BackupFormatError(`no daemon is running and ${cause.message}`)
        })
        try {
          written = await writeBackupFile(backupStream(store, dataDir), file, { overwrite: flags.force })
        } finally {
          await store.close()
        }
      }
    } catch (error) {
      if (error instanceof BackupFormatError) this.error(error.message, { exit: 1 })
      throw error
    }
    const result: BackupResult = {
      file,
      bytes: written.bytes,
      entries: written.entries,
      files: written.files.map((f) => f.path),
      storeVersion: written.header.storeVersion,
      createdAt: written.header.createdAt,
      source,
    }
    this.log(`Backup written to ${file}: ${result.entries} database entries, ${result.files.join(', ') || 'no files'}; ${result.bytes} bytes (${source})`)
    return result
  }
}
