import type { Address, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deriveBundlerKey, deriveOwnerKey } from './derive-key.ts'
import { loadOrCreateMasterSecret, type LoadMasterSecretOptions } from './secret-files.ts'

/**
 * Signing capability without the keys: callers get viem LocalAccounts (which sign but do not expose the private key)
 * and addresses, never key material. The master secret lives only in this closure.
 */
export interface KeyStore {
  /** Signer for the smart account of user `userIndex` (the account's owner). */
  ownerSigner(userIndex: number): LocalAccount
  /** Signer of the bundler EOA that submits handleOps and pays its gas. */
  bundlerSigner(): LocalAccount
  bundlerAddress(): Address
}

export function createKeyStore(masterSecret: Uint8Array): KeyStore {
  const secret = new Uint8Array(masterSecret)
  const owners = new Map<number, LocalAccount>()
  const bundler = privateKeyToAccount(deriveBundlerKey(secret))
  return {
    ownerSigner(userIndex) {
      let signer = owners.get(userIndex)
      if (!signer) {
        signer = privateKeyToAccount(deriveOwnerKey(secret, userIndex))
        owners.set(userIndex, signer)
      }
      return signer
    },
    bundlerSigner: () => bundler,
    bundlerAddress: () => bundler.address,
  }
}

/** Opens (or on first start creates) the encrypted master secret and returns the key store built on it. */
export async function openKeyStore(options: LoadMasterSecretOptions): Promise<KeyStore> {
  const secret = await loadOrCreateMasterSecret(options)
  const store = createKeyStore(secret)
  secret.fill(0)
  return store
}
