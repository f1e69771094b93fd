import { randomBytes } from 'node:crypto'
import { chmod, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PrebuyError } from '../../common/errors.ts'
import { decryptSecret, DEFAULT_SCRYPT_PARAMS, encryptSecret, type EncryptedSecret, type ScryptParams } from './encrypt-secret.ts'

export const secretsDir = (dataDir: string): string => join(dataDir, 'secrets')
export const masterSecretPath = (dataDir: string): string => join(secretsDir(dataDir), 'master-secret.json')
export const devnetPassphrasePath = (dataDir: string): string => join(secretsDir(dataDir), 'passphrase')

async function ensureSecretsDir(dataDir: string): Promise<string> {
  const dir = secretsDir(dataDir)
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // mkdir's mode is masked by umask and ignored when the folder exists: set it explicitly.
  await chmod(dir, 0o700)
  return dir
}

/** Write-then-rename so a crash never leaves a half-written secret file, created 0600 from the first byte. */
async function writeSecretFile(path: string, content: string): Promise<void> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, content, { mode: 0o600, flag: 'wx' })
  await chmod(temporary, 0o600)
  await rename(temporary, path)
}

async function readIfExists(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}

export interface LoadMasterSecretOptions {
  dataDir: string
  passphrase: string
  /** Tests lower the KDF cost; production keeps the default. */
  scryptParams?: ScryptParams
}

/**
 * Reads and decrypts `<dataDir>/secrets/master-secret.json`, creating it with 32 fresh random bytes on first start.
 * The returned bytes are the root of every owner key: callers keep them in a closure and never log them.
 */
export async function loadOrCreateMasterSecret(options: LoadMasterSecretOptions): Promise<Uint8Array> {
  const path = masterSecretPath(options.dataDir)
  const existing = await readIfExists(path)
  if (existing !== undefined) {
    let parsed: EncryptedSecret
    try {
      parsed = JSON.parse(existing) as EncryptedSecret
    } catch {
      throw new PrebuyError('internal', 'unreadable_master_secret', 'The master secret file is not valid JSON.')
    }
    return decryptSecret(parsed, options.passphrase)
  }
  await ensureSecretsDir(options.dataDir)
  const secret = new Uint8Array(randomBytes(32))
  const encrypted = await encryptSecret(secret, options.passphrase, options.scryptParams ?? DEFAULT_SCRYPT_PARAMS)
  await writeSecretFile(path, `${JSON.stringify(encrypted, null, 2)}\n`)
  return secret
}

/**
 * Devnet only: a random passphrase generated once and kept next to the encrypted secret (0600), so a local run needs
 * no configuration. On a real deployment the passphrase comes from PREBUY_PASSPHRASE and is never written down.
 */
export async function loadOrCreateDevnetPassphrase(dataDir: string): Promise<string> {
  const path = devnetPassphrasePath(dataDir)
  const existing = await readIfExists(path)
  if (existing !== undefined && existing.trim().length > 0) return existing.trim()
  await ensureSecretsDir(dataDir)
  const passphrase = randomBytes(32).toString('base64url')
  await writeSecretFile(path, `${passphrase}\n`)
  return passphrase
}
