import { randomBytes } from 'node:crypto'
import { chmod, link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises'
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

/**
 * Creates a secret file exactly once: written to a temporary file (0600 from the first byte), then hard-linked into
 * place, which fails if the file already exists. A crash never leaves half a secret, and of two processes starting on
 * a fresh data dir one wins and the other returns false and must read the winner's file: a rename would let the
 * second overwrite the first's secret after the first already used it.
 */
async function createSecretFile(path: string, content: string): Promise<boolean> {
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(temporary, content, { mode: 0o600, flag: 'wx' })
  try {
    await chmod(temporary, 0o600)
    await link(temporary, path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false
    throw error
  } finally {
    await unlink(temporary).catch(() => undefined)
  }
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
  const open = async (content: string): Promise<Uint8Array> => {
    let parsed: EncryptedSecret
    try {
      parsed = JSON.parse(content) as EncryptedSecret
    } catch {
      throw new PrebuyError('unreadable_master_secret', 'The master secret file is not valid JSON.')
    }
    return decryptSecret(parsed, options.passphrase)
  }
  const existing = await readIfExists(path)
  if (existing !== undefined) return open(existing)
  await ensureSecretsDir(options.dataDir)
  const secret = new Uint8Array(randomBytes(32))
  const encrypted = await encryptSecret(secret, options.passphrase, options.scryptParams ?? DEFAULT_SCRYPT_PARAMS)
  if (await createSecretFile(path, `${JSON.stringify(encrypted, null, 2)}\n`)) return secret
  secret.fill(0)
  return open(await readFile(path, 'utf8'))
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
  if (await createSecretFile(path, `${passphrase}\n`)) return passphrase
  return (await readFile(path, 'utf8')).trim()
}
