import { readFile } from 'node:fs/promises'
import { daemonFilePath, operatorTokenPath, type DaemonFile } from './daemon-files.ts'

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

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to someone else; still alive.
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** Finds the daemon serving a data dir from `<data-dir>/daemon.json` and `<data-dir>/operator-token`. */
export async function locateDaemon(dataDir: string): Promise<LocatedDaemon> {
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
