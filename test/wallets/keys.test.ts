import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { privateKeyToAccount } from 'viem/accounts'
import { afterEach, describe, expect, it } from 'vitest'
import { PrebuyError } from '../../src/common/errors.ts'
import { deriveBundlerKey, deriveSenderKey, deriveChildKey, deriveOwnerKey } from '../../src/wallets/keys/derive-key.ts'
import { decryptSecret, encryptSecret } from '../../src/wallets/keys/encrypt-secret.ts'
import { createKeyStore, openKeyStore } from '../../src/wallets/keys/key-store.ts'
import { senderAddresses } from '../../src/wallets/create-wallet-service.ts'
import {
  devnetPassphrasePath,
  loadOrCreateDevnetPassphrase,
  loadOrCreateMasterSecret,
  masterSecretPath,
  secretsDir,
} from '../../src/wallets/keys/secret-files.ts'

/** Cheap KDF for tests; production uses N = 2^15. */
const FAST = { N: 2 ** 10, r: 8, p: 1 }
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n
const dirs: string[] = []
const tempDir = async () => {
  const dir = await mkdtemp(join(tmpdir(), 'prebuy-keys-'))
  dirs.push(dir)
  return dir
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })))
})

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex')

describe('secret encryption', () => {
  it('round-trips with the right passphrase and refuses a wrong one without revealing anything', async () => {
    const secret = new Uint8Array(32).fill(7)
    const encrypted = await encryptSecret(secret, 'correct horse', FAST)
    expect(hex(await decryptSecret(encrypted, 'correct horse'))).toBe(hex(secret))
    const error = await decryptSecret(encrypted, 'wrong horse').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PrebuyError)
    expect((error as PrebuyError).code).toBe('wrong_passphrase')
    expect((error as PrebuyError).message).not.toContain('correct horse')
    expect((error as PrebuyError).message).not.toContain(hex(secret))
    expect((error as PrebuyError).cause).toBeUndefined()
  })

  it('detects a tampered ciphertext', async () => {
    const encrypted = await encryptSecret(new Uint8Array(32).fill(1), 'pass', FAST)
    const flipped = (Number.parseInt(encrypted.ciphertext.slice(0, 2), 16) ^ 1).toString(16).padStart(2, '0')
    await expect(decryptSecret({ ...encrypted, ciphertext: flipped + encrypted.ciphertext.slice(2) }, 'pass')).rejects.toMatchObject({
      code: 'wrong_passphrase',
    })
  })

  it('uses a fresh salt and iv each time', async () => {
    const secret = new Uint8Array(32).fill(3)
    const a = await encryptSecret(secret, 'pass', FAST)
    const b = await encryptSecret(secret, 'pass', FAST)
    expect(a.salt).not.toBe(b.salt)
    expect(a.iv).not.toBe(b.iv)
    expect(a.ciphertext).not.toBe(b.ciphertext)
  })
})

describe('master secret file', () => {
  it('is created once, encrypted, mode 0600 in a 0700 folder, and reopened with the same bytes', async () => {
    const dataDir = await tempDir()
    const first = await loadOrCreateMasterSecret({ dataDir, passphrase: 'pp', scryptParams: FAST })
    expect(first).toHaveLength(32)
    const file = await readFile(masterSecretPath(dataDir), 'utf8')
    expect(file).not.toContain(hex(first))
    expect(file).not.toContain(Buffer.from(first).toString('base64'))
    expect(JSON.parse(file)).toMatchObject({ kdf: 'scrypt', cipher: 'aes-256-gcm' })
    expect((await stat(masterSecretPath(dataDir))).mode & 0o777).toBe(0o600)
    expect((await stat(secretsDir(dataDir))).mode & 0o777).toBe(0o700)
    const again = await loadOrCreateMasterSecret({ dataDir, passphrase: 'pp' })
    expect(hex(again)).toBe(hex(first))
  })

  it('two concurrent first starts agree on one secret', async () => {
    const dataDir = await tempDir()
    const [a, b, c] = await Promise.all([1, 2, 3].map(() => loadOrCreateMasterSecret({ dataDir, passphrase: 'same', scryptParams: FAST })))
    expect(hex(a!)).toBe(hex(b!))
    expect(hex(b!)).toBe(hex(c!))
    expect(hex(await loadOrCreateMasterSecret({ dataDir, passphrase: 'same' }))).toBe(hex(a!))
    const [p, q] = await Promise.all([loadOrCreateDevnetPassphrase(dataDir), loadOrCreateDevnetPassphrase(dataDir)])
    expect(p).toBe(q)
    const { readdir } = await import('node:fs/promises')
    expect((await readdir(secretsDir(dataDir))).sort()).toEqual(['master-secret.json', 'passphrase'])
  })

  it('refuses a wrong passphrase with a typed error', async () => {
    const dataDir = await tempDir()
    await loadOrCreateMasterSecret({ dataDir, passphrase: 'right', scryptParams: FAST })
    await expect(loadOrCreateMasterSecret({ dataDir, passphrase: 'wrong' })).rejects.toMatchObject({ kind: 'unauthorized', code: 'wrong_passphrase' })
    await expect(openKeyStore({ dataDir, passphrase: 'wrong' })).rejects.toBeInstanceOf(PrebuyError)
  })

  it('refuses a file that is not JSON', async () => {
    const dataDir = await tempDir()
    await loadOrCreateMasterSecret({ dataDir, passphrase: 'x', scryptParams: FAST })
    await writeFile(masterSecretPath(dataDir), 'garbage')
    await expect(loadOrCreateMasterSecret({ dataDir, passphrase: 'x' })).rejects.toMatchObject({ code: 'unreadable_master_secret' })
  })

  it('devnet passphrase is generated once with mode 0600', async () => {
    const dataDir = await tempDir()
    const first = await loadOrCreateDevnetPassphrase(dataDir)
    expect(first.length).toBeGreaterThanOrEqual(40)
    expect(await loadOrCreateDevnetPassphrase(dataDir)).toBe(first)
    expect((await stat(devnetPassphrasePath(dataDir))).mode & 0o777).toBe(0o600)
    const store = await openKeyStore({ dataDir, passphrase: first, scryptParams: FAST })
    const reopened = await openKeyStore({ dataDir, passphrase: await loadOrCreateDevnetPassphrase(dataDir) })
    expect(reopened.ownerSigner(4).address).toBe(store.ownerSigner(4).address)
  })
})

describe('key derivation', () => {
  const master = new Uint8Array(32).map((_, i) => i + 1)

  it('is deterministic, distinct per index and per tag, and always a valid secp256k1 key', () => {
    expect(deriveOwnerKey(master, 0)).toBe(deriveOwnerKey(master, 0))
    const keys = new Set(Array.from({ length: 200 }, (_, i) => deriveOwnerKey(master, i)))
    expect(keys.size).toBe(200)
    for (const key of keys) {
      const scalar = BigInt(key)
      expect(scalar > 0n && scalar < N).toBe(true)
      expect(key).toMatch(/^0x[0-9a-f]{64}$/)
    }
    expect(keys.has(deriveBundlerKey(master))).toBe(false)
    expect(deriveChildKey(master, 'other-tag', 0)).not.toBe(deriveOwnerKey(master, 0))
  })

  it('depends on the master secret', () => {
    const other = new Uint8Array(32).fill(9)
    expect(deriveOwnerKey(other, 1)).not.toBe(deriveOwnerKey(master, 1))
  })

  it('matches the documented construction (HMAC-SHA256 over "tag:index", reduced into [1, n-1])', async () => {
    const { createHmac } = await import('node:crypto')
    const h = BigInt(`0x${createHmac('sha256', master).update('prebuy/owner-key/v1:5').digest('hex')}`)
    expect(BigInt(deriveOwnerKey(master, 5))).toBe((h % (N - 1n)) + 1n)
  })

  it('refuses negative or fractional indexes', () => {
    expect(() => deriveOwnerKey(master, -1)).toThrow(PrebuyError)
    expect(() => deriveOwnerKey(master, 1.5)).toThrow(PrebuyError)
  })

  it('key store hands out signers, never key material', () => {
    const store = createKeyStore(master)
    const signer = store.ownerSigner(3)
    expect(signer.address).toBe(privateKeyToAccount(deriveOwnerKey(master, 3)).address)
    expect(store.bundlerAddress()).toBe(privateKeyToAccount(deriveBundlerKey(master)).address)
    const serialised = JSON.stringify(signer) + JSON.stringify(store.bundlerSigner())
    expect(serialised).not.toContain(deriveOwnerKey(master, 3).slice(2))
    expect(serialised).not.toContain(deriveBundlerKey(master).slice(2))
    expect(Object.values(store).every((value) => typeof value === 'function')).toBe(true)
  })

  it('an owner signer signs exactly as a signer holding the derived key, and holds no key itself', async () => {
    const store = createKeyStore(master)
    const signer = store.ownerSigner(11)
    const holding = privateKeyToAccount(deriveOwnerKey(master, 11))
    expect(signer.address).toBe(holding.address)
    expect(store.ownerAddress(11)).toBe(holding.address)
    expect(signer.publicKey).toBe(holding.publicKey)
    const hash = `0x${'ab'.repeat(32)}` as const
    expect(await signer.sign!({ hash })).toBe(await holding.sign({ hash }))
    expect(await signer.signMessage({ message: { raw: hash } })).toBe(await holding.signMessage({ message: { raw: hash } }))
    const typedData = {
      domain: { name: 'prebuy', chainId: 8453 },
      types: { Order: [{ name: 'spend', type: 'uint256' }] },
      primaryType: 'Order',
      message: { spend: 5n },
    } as const
    expect(await signer.signTypedData(typedData)).toBe(await holding.signTypedData(typedData))
    const transaction = {
      chainId: 8453,
      type: 'eip1559',
      to: holding.address,
      nonce: 3,
      gas: 21_000n,
      maxFeePerGas: 2n,
      maxPriorityFeePerGas: 1n,
      value: 1n,
    } as const
    expect(await signer.signTransaction(transaction)).toBe(await holding.signTransaction(transaction))
    // Nothing the signer holds, nor the store, carries the key: it is derived for each signature and dropped.
    const key = deriveOwnerKey(master, 11).slice(2)
    expect(JSON.stringify(signer)).not.toContain(key)
    for (const method of [signer.sign, signer.signMessage, signer.signTypedData, signer.signTransaction]) expect(String(method)).not.toContain(key)
  })

  it('sender accounts: account 0 is the bundler EOA, the others distinct keys of the same derivation, none exposed', () => {
    const store = createKeyStore(master)
    expect(store.senderSigner(0).address).toBe(store.bundlerAddress())
    const addresses = [0, 1, 2, 3].map((i) => store.senderSigner(i).address)
    expect(new Set(addresses).size).toBe(4)
    expect(addresses[2]).toBe(privateKeyToAccount(deriveSenderKey(master, 2)).address)
    expect(JSON.stringify(store.senderSigner(2))).not.toContain(deriveSenderKey(master, 2).slice(2))
    expect(senderAddresses(store, 3)).toEqual(addresses.slice(0, 3))
  })
})
