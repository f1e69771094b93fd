import { readFile } from 'node:fs/promises'
import { daemonFilePath, type DaemonFile } from '../../src/config/daemon-files.ts'

/**
 * LevelDB and the devnet chains allow one daemon per data dir. Refuse early, before any chain starts, when
 * daemon.json names another live process; a stale file (crash, kill -9) is simply overwritten later.
 */
export async function assertNoOtherDaemon(dataDir: string): Promise<void> {
  let file: DaemonFile
  try {
    file = JSON.parse(await readFile(daemonFilePath(dataDir), 'utf8')) as DaemonFile
  } catch {
    return
  }
  if (typeof file.pid !== 'number' || file.pid === process.pid) return
  try {
    process.kill(file.pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return
  }
  throw new Error(`another prebuy daemon (pid ${file.pid}) is already running for data dir ${dataDir} at ${file.url}`)
}
