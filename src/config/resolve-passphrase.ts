import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ConfigError } from './config-error.ts'

/** The same file the wallet layer uses (src/wallets/keys/secret-files.ts), beside the encrypted master secret. */
export const DEVNET_PASSPHRASE_FILE = join('secrets', 'passphrase')
const MIN_LENGTH = 8

/**
 * The passphrase that encrypts the wallets' master secret. Real chains must pass it in PREBUY_PASSPHRASE so it never
 * sits beside the secret it protects; on devnet, where funds are play money, one is generated on first start and kept
 * in the data dir (mode 0600) so `npm start` needs no setup.
 */
export async function resolvePassphrase(options: {
  envValue: string | undefined
  mode: 'devnet' | 'rpc'
  dataDir: string
}): Promise<{ passphrase: string; source: 'env' | 'devnet-file' }> {
  if (options.envValue !== undefined) {
    if (options.envValue.length < MIN_LENGTH) {
      throw new ConfigError('PREBUY_PASSPHRASE', `expected at least ${MIN_LENGTH} characters`, 'from env PREBUY_PASSPHRASE')
    }
    return { passphrase: options.envValue, source: 'env' }
  }
  if (options.mode === 'rpc') {
    throw new ConfigError('PREBUY_PASSPHRASE', "required when chains.mode is 'rpc'", 'from env PREBUY_PASSPHRASE')
  }
  const path = join(options.dataDir, DEVNET_PASSPHRASE_FILE)
  try {
    const stored = (await readFile(path, 'utf8')).trim()
    if (stored.length >= MIN_LENGTH) return { passphrase: stored, source: 'devnet-file' }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(join(options.dataDir, 'secrets'), { recursive: true, mode: 0o700 })
  const generated = randomBytes(32).toString('base64url')
  // flag 'wx': two daemons racing on a fresh dir cannot overwrite each other's passphrase.
  try {
    await writeFile(path, `${generated}\n`, { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolvePassphrase(options)
    throw error
  }
  await chmod(path, 0o600)
  return { passphrase: generated, source: 'devnet-file' }
}
