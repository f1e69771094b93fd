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
