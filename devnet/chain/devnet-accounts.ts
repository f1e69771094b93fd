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
  return Array.from({ length: count }, (_, index) => {
    const privateKey = toHex(mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index }).getHdKey().privateKey!)
    const account = privateKeyToAccount(privateKey)
    return { address: account.address, privateKey, account }
  })
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
export const devnetAccount = (role: keyof typeof DEVNET_ACCOUNTS): DevAccount => devAccounts()[DEVNET_ACCOUNTS[role]]!
