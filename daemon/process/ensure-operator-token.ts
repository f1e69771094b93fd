import { randomBytes } from 'node:crypto'
import { chmod, readFile, writeFile } from 'node:fs/promises'
import { operatorTokenPath } from '../../src/config/daemon-files.ts'

export const OPERATOR_TOKEN_PREFIX = 'prebuy_op_'

/**
 * The operator token guards the admin API. Created on first start (mode 0600: only the operator's user reads it) and
 * kept across restarts, so a CLI session keeps working when the daemon restarts.
 */
export async function ensureOperatorToken(dataDir: string): Promise<string> {
  const path = operatorTokenPath(dataDir)
  try {
    const existing = (await readFile(path, 'utf8')).trim()
    if (existing.startsWith(OPERATOR_TOKEN_PREFIX)) {
      // Tighten a file someone loosened by hand; the token is as good as root on the service.
      await chmod(path, 0o600)
      return existing
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  const token = `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`
  await writeFile(path, `${token}\n`, { mode: 0o600 })
  await chmod(path, 0o600)
  return token
}
