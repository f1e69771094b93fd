import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCallback, type ScryptOptions } from 'node:crypto'
import { PrebuyError } from '../../common/errors.ts'

/** Scrypt cost of the passphrase KDF. N = 2^15 costs ~32 MiB and ~100 ms: paid once per daemon start. */
export interface ScryptParams {
  N: number
  r: number
  p: number
}

export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 1 }

/** What lands on disk. Every field is public; only the passphrase opens it. */
export interface EncryptedSecret {
  version: 1
  kdf: 'scrypt'
  kdfParams: ScryptParams
  salt: string
  cipher: 'aes-256-gcm'
  iv: string
  ciphertext: string
  tag: string
}

/** Binds the ciphertext to its purpose so a blob encrypted for something else never decrypts as a master secret. */
const AAD = Buffer.from('prebuy/master-secret/v1')

function deriveKey(passphrase: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // maxmem must exceed 128 * N * r, or node refuses the default parameters.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r + 1024 * 1024 }
  return new Promise((resolve, reject) => {
    scryptCallback(passphrase.normalize('NFKC'), salt, 32, options, (error, key) => (error ? reject(error) : resolve(key)))
  })
}

export async function encryptSecret(secret: Uint8Array, passphrase: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<EncryptedSecret> {
  if (passphrase.length === 0) throw new PrebuyError('empty_passphrase', 'The passphrase must not be empty.')
  const salt = randomBytes(16)
  const iv = randomBytes(12)
  const key = await deriveKey(passphrase, salt, params)
  const cipher = createCipheriv('aes-256-gcm', key, iv)
  cipher.setAAD(AAD)
  const ciphertext = Buffer.concat([cipher.update(secret), cipher.final()])
  key.fill(0)
  return {
    version: 1,
    kdf: 'scrypt',
    kdfParams: params,
    salt: salt.toString('hex'),
    cipher: 'aes-256-gcm',
    iv: iv.toString('hex'),
    ciphertext: ciphertext.toString('hex'),
    tag: cipher.getAuthTag().toString('hex'),
  }
}

/**
 * Opens an encrypted secret. A wrong passphrase and a tampered file look the same to AES-GCM (the tag does not match);
 * both give one typed error whose message carries neither the secret nor the passphrase.
 */
export async function decryptSecret(encrypted: EncryptedSecret, passphrase: string): Promise<Uint8Array> {
  if (encrypted.version !== 1 || encrypted.kdf !== 'scrypt' || encrypted.cipher !== 'aes-256-gcm') {
    throw new PrebuyError('unsupported_secret_format', 'The master secret file has an unsupported format.')
  }
  const key = await deriveKey(passphrase, Buffer.from(encrypted.salt, 'hex'), encrypted.kdfParams)
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(encrypted.iv, 'hex'))
    decipher.setAAD(AAD)
    decipher.setAuthTag(Buffer.from(encrypted.tag, 'hex'))
    const plain = Buffer.concat([decipher.update(Buffer.from(encrypted.ciphertext, 'hex')), decipher.final()])
    return new Uint8Array(plain)
  } catch {
    // The cause is deliberately dropped: crypto errors add nothing and must not drag buffers into logs.
    throw new PrebuyError('wrong_passphrase', 'The master secret could not be decrypted: the passphrase is wrong or the secret file is damaged.')
  } finally {
    key.fill(0)
  }
}
