import { chmod, lstat, mkdir, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { isMainThread } from 'node:worker_threads'

/** How deep below the data dir existing entries are made private (db/, devnet/, secrets/ and their files). */
const MAX_DEPTH = 4

/**
 * The data dir holds the order book, the wallets' encrypted master secret, the operator token and the chains' state:
 * only the daemon's user may read it. Creates it 0700; an existing one (say created by the operator with a 0755 umask)
 * and what is already in it are narrowed to 0700 for directories and 0600 for files; and the process umask becomes 077,
 * so everything written later (LevelDB files, state dumps, the chains' children) is private too. Symbolic links are
 * left alone (never followed).
 */
export async function makeDataDirPrivate(dataDir: string): Promise<void> {
  // (A worker thread cannot change the process umask: the narrowing below still applies there.)
  if (isMainThread) process.umask(0o077)
  await mkdir(dataDir, { recursive: true, mode: 0o700 })
  await narrow(dataDir, 0)
}

async function narrow(path: string, depth: number): Promise<void> {
  const info = await lstat(path)
  if (info.isSymbolicLink()) return
  if (info.isDirectory()) {
    if ((info.mode & 0o077) !== 0) await chmod(path, 0o700)
    if (depth >= MAX_DEPTH) return
    for (const entry of await readdir(path)) await narrow(join(path, entry), depth + 1)
    return
  }
  if (info.isFile() && (info.mode & 0o077) !== 0) await chmod(path, info.mode & 0o700)
}
