import type { Address, LocalAccount } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { deriveOwnerKey, deriveSenderKey } from './derive-key.ts'
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
  /**
   * Signer of sender account `index` (wallet.senderAccounts): index 0 is the bundler EOA, the others send the service's
   * transactions alongside it, each with its own nonces.
   */
  senderSigner(index: number): LocalAccount
}

export function createKeyStore(masterSecret: Uint8Array): KeyStore {
  const secret = new Uint8Array(masterSecret)
  const owners = new Map<number, LocalAccount>()
  const senders = new Map<number, LocalAccount>()
  const senderSigner = (index: number): LocalAccount => {
    let signer = senders.get(index)
    if (!signer) {
      signer = privateKeyToAccount(deriveSenderKey(secret, index))
      senders.set(index, signer)
    }
    return signer
  }
  const bundler = senderSigner(0)
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
    senderSigner,
  }
}

/** Opens (or on first start creates) the encrypted master secret and returns the key store built on it. */
export async function openKeyStore(options: LoadMasterSecretOptions): Promise<KeyStore> {
  const secret = await loadOrCreateMasterSecret(options)
  const store = createKeyStore(secret)
  secret.fill(0)
  return store
}
