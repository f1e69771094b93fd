import { join } from 'node:path'

/**
 * Files through which the CLI finds a running daemon. Shared by the daemon (writer) and the CLI (reader), so the two
 * can never disagree on names or shape.
 */
export const DAEMON_FILE = 'daemon.json'
export const OPERATOR_TOKEN_FILE = 'operator-token'

export interface DaemonFile {
  pid: number
  /** Public API base, e.g. http://127.0.0.1:8787 */
  url: string
  /** Admin API base (loopback), e.g. http://127.0.0.1:8788 */
  adminUrl: string
  startedAt: string
}

export const daemonFilePath = (dataDir: string): string => join(dataDir, DAEMON_FILE)
export const operatorTokenPath = (dataDir: string): string => join(dataDir, OPERATOR_TOKEN_FILE)
