import type { Address, Hex, LocalAccount } from 'viem'
import { privateKeyToAccount, sign, signAuthorization, signMessage, signTransaction, signTypedData, toAccount } from 'viem/accounts'
import { deriveOwnerKey, deriveSenderKey } from './derive-key.ts'
import { loadOrCreateMasterSecret, type LoadMasterSecretOptions } from './secret-files.ts'

/**
 * Signing capability without the keys: callers get viem LocalAccounts (which sign but do not expose the private key)
 * and addresses, never key material. The master secret lives only in this closure.
 */
export interface KeyStore {
  /** Signer for the smart account of user `userIndex` (the account's owner). */
  ownerSigner(userIndex: number): LocalAccount
  /** The address of that signer (kept per user: no signer is built to answer it). */
  ownerAddress(userIndex: number): Address
  /** Signer of the bundler EOA that submits handleOps and pays its gas. */
  bundlerSigner(): LocalAccount
  bundlerAddress(): Address
  /**
   * Signer of sender account `index` (wallet.senderAccounts): index 0 is the bundler EOA, the others send the service's
   * transactions alongside it, each with its own nonces.
   */
  senderSigner(index: number): LocalAccount
}

/** An owner's public side: what its signer shows without its key. */
interface OwnerIdentity {
  address: Address
  publicKey: Hex
}

/**
 * A signer that holds no key: each signature derives the key (one HMAC, microseconds) and drops it. What a signer built
 * by privateKeyToAccount does, without its private key captured for as long as the signer lives.
 */
function keyDerivingSigner(identity: OwnerIdentity, key: () => Hex): LocalAccount {
  return {
    ...toAccount({
      address: identity.address,
      sign: async ({ hash }) => sign({ hash, privateKey: key(), to: 'hex' }),
      signAuthorization: async (authorization) => signAuthorization({ ...authorization, privateKey: key() }),
      signMessage: async ({ message }) => signMessage({ message, privateKey: key() }),
      signTransaction: async (transaction, { serializer } = {}) => signTransaction({ privateKey: key(), transaction, serializer }),
      // biome-ignore lint/suspicious/noExplicitAny: viem's own privateKeyToAccount passes the typed data through the same way
      signTypedData: async (typedData) => signTypedData({ ...typedData, privateKey: key() } as any),
    }),
    publicKey: identity.publicKey,
  }
}

export function createKeyStore(masterSecret: Uint8Array): KeyStore {
  const secret = new Uint8Array(masterSecret)
  // Per user, its owner's address and public key only (~300 bytes): a signer object per user kept for the daemon's life
  // held its private key and ~600 bytes, and deriving the public key again costs ~0.5 ms (secp256k1), so the identity
  // is what is kept. With 17,000 users' wallets warm, the signers and the smart-account objects built over them held
  // ~110 MB of the daemon's heap (docs/reliability.md "Memory").
  const owners = new Map<number, OwnerIdentity>()
  const senders = new Map<number, LocalAccount>()
  const senderSigner = (index: number): LocalAccount => {
    let signer = senders.get(index)
    if (!signer) {
      signer = privateKeyToAccount(deriveSenderKey(secret, index))
      senders.set(index, signer)
    }
    return signer
  }
  const ownerOf = (userIndex: number): OwnerIdentity => {
    let identity = owners.get(userIndex)
    if (!identity) {
      const { address, publicKey } = privateKeyToAccount(deriveOwnerKey(secret, userIndex))
      identity = { address, publicKey }
      owners.set(userIndex, identity)
    }
    return identity
  }
  const bundler = senderSigner(0)
  return {
    ownerSigner: (userIndex) => keyDerivingSigner(ownerOf(userIndex), () => deriveOwnerKey(secret, userIndex)),
    ownerAddress: (userIndex) => ownerOf(userIndex).address,
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
