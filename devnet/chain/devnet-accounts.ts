import { toHex, type Address, type Hex } from 'viem'
import { mnemonicToAccount, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'

/** anvil's default mnemonic: its first accounts start with 10,000 ETH each. Public knowledge; devnet only. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'
export const ANVIL_ACCOUNT_COUNT = 10

export interface DevAccount {
  address: Address
  privateKey: Hex
  account: PrivateKeyAccount
}

/**
 * anvil's funded dev accounts. Index 0 is the devnet deployer (owner of the fixtures and stablecoin minter); the
 * others are free for callers (a bundler EOA, test traders), so nothing else has to touch the deployer's nonce.
 */
export function devAccounts(count = ANVIL_ACCOUNT_COUNT): DevAccount[] {
  return Array.from({ length: count }, (_, index) => devAccount(index))
}

/**
 * Derived once per process: each derivation from the mnemonic runs PBKDF2 (2,048 rounds of HMAC-SHA512, in
 * JavaScript), and a daemon start asked for the ten accounts five times over; on the loaded 2-core machine that was
 * about 5 s of a start's CPU (a CPU profile of `npm start`, 2026-11-26). The accounts are constants of the mnemonic.
 */
const derived = new Map<number, DevAccount>()
function devAccount(index: number): DevAccount {
  let known = derived.get(index)
  if (!known) {
    const privateKey = toHex(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }).getHdKey().privateKey!)
    const account = privateKeyToAccount(privateKey)
    known = { address: account.address, privateKey, account }
    derived.set(index, known)
  }
  return known
}

/**
 * Which of anvil's funded accounts the embedded devnet uses for what: allocated here and nowhere else, so no two users
 * share a nonce (two senders on one account race for the same nonce and one transaction is dropped). Accounts 1 to 7
 * are left to tests and tools (traders, an external bundler's signer).
 */
export const DEVNET_ACCOUNTS = {
  /** Deploys every fixture, owns the pools' liquidity, mints the stablecoin (start-devnet.ts). */
  fixtures: 0,
  /** Deploys the devnet launchpads (devnet-launchpads.ts). */
  launchpads: 8,
  /** Deploys this service's own contracts for the daemon: buy router, vesting, OTC settlement, dev-buy coordinator. */
  serviceContracts: 9,
} as const satisfies Record<string, number>

/** The funded account of one devnet role. */
export const devnetAccount = (role: keyof typeof DEVNET_ACCOUNTS): DevAccount => devAccount(DEVNET_ACCOUNTS[role])
