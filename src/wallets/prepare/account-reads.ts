import { type Address, type PublicClient, toFunctionSelector } from 'viem'
import { addressCalls, readWords } from '../../chain/read-words-multicall.ts'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { OperationAccount } from '../accounts/operation-account.ts'
import { readCodeSizes } from '../bundler/code-sizes.ts'

/** EntryPoint v0.7 getNonce(address sender, uint192 key) (account-abstraction 0.7 NonceManager.sol). */
const GET_NONCE = toFunctionSelector('getNonce(address,uint192)')

/** How long an unconfirmed deployment keeps other batches from deploying the same wallet. */
const DEPLOYMENT_WAIT_MS = 10 * 60_000

/** The chain reads a prepare makes for its accounts, each batched into one call for many accounts. */
export interface AccountReads {
  /** EntryPoint nonces of the accounts on the given keys, in one Multicall3 (none for an empty list). */
  readNonces(accounts: readonly OperationAccount[], keys: readonly bigint[]): Promise<readonly bigint[]>
  /**
   * Deployment status of many accounts in one eth_call. Only the states read ahead (`warm`) are kept, and only while
   * exact: a plain "deployed" memo would go stale when a reorg drops the deploying block, the operation would then
   * carry no initCode and the EntryPoint reject its whole bundle with empty revert data (the call to a codeless
   * sender). The warm cache is cleared on a reorg and voided by the account's own next operation.
   */
  deploymentStatus(addresses: readonly Address[]): Promise<boolean[]>
  /** Resolves once the address has code, or after DEPLOYMENT_WAIT_MS. */
  waitForCode(address: Address): Promise<void>
}

export function createAccountReads(options: { chain: ChainConfig; client: PublicClient }): AccountReads {
  const { chain, client } = options

  // Through Multicall3 by hand (read-words-multicall.ts: viem's multicall cost ~0.1 ms of CPU a call, thousands here).
  const readNonces = (accounts: readonly OperationAccount[], keys: readonly bigint[]): Promise<readonly bigint[]> =>
    accounts.length === 0
      ? Promise.resolve([])
      : readWords(
          client,
          chain.addresses.multicall3,
          chain.addresses.entryPoint,
          addressCalls(
            GET_NONCE,
            accounts.map((account) => account.address),
            accounts.map((_, index) => keys[index] ?? 0n),
          ),
        )

  async function deploymentStatus(addresses: readonly Address[]): Promise<boolean[]> {
    const sizes = await readCodeSizes(client, addresses)
    return sizes.map((size) => size > 0)
  }

  async function waitForCode(address: Address): Promise<void> {
    const deadline = Date.now() + DEPLOYMENT_WAIT_MS
    while (Date.now() < deadline) {
      const [has] = await deploymentStatus([address]).catch(() => [false])
      if (has) return
      // unref: a watcher must never keep a stopping daemon alive.
      await new Promise((resolve) => setTimeout(resolve, 1_000).unref())
    }
  }

  return { readNonces, deploymentStatus, waitForCode }
}
