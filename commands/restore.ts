import { resolve } from 'node:path'
import { Args, Flags } from '@oclif/core'
import { OperatorCommand } from '../src/admin-client/cli/operator-command.ts'
import { DaemonNotFoundError, locateDaemon } from '../src/admin-client/locate-daemon.ts'
import { BackupFormatError } from '../src/store/backup/backup-format.ts'
import { RestoreRefusedError, type RestoreResult, restoreBackup } from '../src/store/backup/restore-backup.ts'

export default class Restore extends OperatorCommand {
  static override description = `Restore a backup (from prebuy backup) into a data dir whose daemon is stopped
The whole file is checked first: a cut-off or altered backup changes nothing. A data dir that already holds a database, or a master secret or config.json that differ from the backup's, is refused unless --force, which moves them aside (renamed *.before-restore-<time>, never deleted). Start the daemon afterwards: it migrates an older store layout itself.`
  static override examples = [
    '<%= config.bin %> restore /var/backups/prebuy-2026-11-25.jsonl.gz --data-dir /var/lib/prebuy',
    '<%= config.bin %> restore backup.jsonl.gz --force',
  ]
  static override args = { file: Args.string({ required: true, description: 'the backup file' }) }
  static override flags = { force: Flags.boolean({ description: 'move what the data dir holds aside instead of refusing', default: false }) }

  async run(): Promise<RestoreResult> {
    const { args, flags } = await this.parse(Restore)
    const dataDir = this.dataDir(flags)
    const live = await locateDaemon(dataDir).then(
      (daemon) => daemon,
      (error: unknown) => {
        if (error instanceof DaemonNotFoundError) return undefined
        throw error
      },
    )
    if (live)
      this.error(`a daemon (pid ${live.pid}) is running for ${dataDir}: stop it first (prebuy restore never replaces a live daemon's data)`, { exit: 1 })
    let result: RestoreResult
    try {
      result = await restoreBackup({ file: resolve(args.file), dataDir, force: flags.force })
    } catch (error) {
      if (error instanceof BackupFormatError || error instanceof RestoreRefusedError) this.error(error.message, { exit: 1 })
      throw error
    }
    this.log(`Restored ${result.entries} database entries and ${result.files.join(', ') || 'no files'} into ${dataDir} (backup of ${result.backupCreatedAt})`)
    if (result.movedAside.length > 0) this.log(`Kept what was there as: ${result.movedAside.join(', ')}`)
    return result
  }
}
