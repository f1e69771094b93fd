import { readFile } from 'node:fs/promises'
import { daemonFilePath, operatorTokenPath, type DaemonFile } from '../config/daemon-files.ts'

/** Why the CLI could not find a daemon to talk to; the message says what to do. */
export class DaemonNotFoundError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'DaemonNotFoundError'
  }
}

export interface LocatedDaemon extends DaemonFile {
  operatorToken: string
}

/** Whether a process with this id exists (EPERM: it does, owned by someone else). */
export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else; still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** The running daemon's `<data-dir>/daemon.json`; a missing file or a dead process is a DaemonNotFoundError. */
export async function runningDaemonFile(dataDir: string): Promise<DaemonFile> {
  let file: DaemonFile
  try {
    file = JSON.parse(await readFile(daemonFilePath(dataDir), 'utf8')) as DaemonFile
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new DaemonNotFoundError(`no daemon is running for data dir ${dataDir} (start one with: prebuy daemon start --data-dir ${dataDir})`)
    }
    throw new DaemonNotFoundError(`cannot read ${daemonFilePath(dataDir)}: ${(error as Error).message}`)
  }
  if (!isAlive(file.pid)) {
    throw new DaemonNotFoundError(
      `the daemon for data dir ${dataDir} (pid ${file.pid}) is not running; start it with: prebuy daemon start --data-dir ${dataDir}`,
    )
  }
  return file
}

/** Finds the daemon serving a data dir from `<data-dir>/daemon.json` and `<data-dir>/operator-token`. */
export async function locateDaemon(dataDir: string): Promise<LocatedDaemon> {
  const file = await runningDaemonFile(dataDir)
  let operatorToken: string
  try {
    operatorToken = (await readFile(operatorTokenPath(dataDir), 'utf8')).trim()
  } catch (error) {
    throw new DaemonNotFoundError(
      `cannot read the operator token ${operatorTokenPath(dataDir)}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    )
  }
  return { ...file, operatorToken }
}
