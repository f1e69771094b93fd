import { createPublicClient, createWalletClient, http, type Abi, type Account, type Address, type Hex, type PublicClient, type TransactionReceipt } from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { minesByItself } from '../anvil/mining-mode.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'

export const devnetPublicClient = (chain: ChainConfig): PublicClient =>
  createPublicClient({ chain: chainFromConfig(chain), transport: http(chain.rpcUrl), pollingInterval: 50 }) as PublicClient

export interface DevnetCall {
  address: Address
  abi: Abi
  functionName: string
  args?: readonly unknown[]
  /** Skip gas estimation (a call expected to revert, or one that depends on a transaction in the same block). */
  gas?: bigint
  /** EIP-1559 fees instead of the node's suggestion (a bid that must beat a gas peg, a front-runner's tip). */
  fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint }
  /** ETH sent with the call, wei (a dev buy). */
  value?: bigint
}

/**
 * Sends one contract call on a devnet and waits for its receipt, whatever the mining mode: with manual mining (no
 * automine, no interval) it mines the block itself. `from` is a local account, or an address anvil impersonates.
 */
export async function sendDevnetCall(chain: ChainConfig, from: Account | Address, call: DevnetCall): Promise<TransactionReceipt> {
  const hash = await submitDevnetCall(chain, from, call)
  return confirmDevnetTx(chain, hash)
}

/** Sends without waiting (several transactions for one block under manual mining). */
export async function submitDevnetCall(chain: ChainConfig, from: Account | Address, call: DevnetCall): Promise<Hex> {
  const wallet = createWalletClient({ chain: chainFromConfig(chain), account: from, transport: http(chain.rpcUrl) })
  const request = {
    address: call.address,
    abi: call.abi,
    functionName: call.functionName,
    args: call.args ?? [],
    account: from,
    ...(call.value ? { value: call.value } : {}),
  }
  // The estimate runs against a pending block whose timestamp differs from the one the transaction lands in, and the
  // launch hooks' work depends on the time: pad it so a swap is never starved of gas by a timestamp change.
  const gas = call.gas ?? ((await devnetPublicClient(chain).estimateContractGas(request as Parameters<PublicClient['estimateContractGas']>[0])) * 3n) / 2n
  return wallet.writeContract({ ...request, gas, ...(call.fees ?? {}) } as Parameters<typeof wallet.writeContract>[0])
}

export async function confirmDevnetTx(chain: ChainConfig, hash: Hex, options: { allowRevert?: boolean } = {}): Promise<TransactionReceipt> {
  await mineIfManual(chain)
  const receipt = await devnetPublicClient(chain).waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 })
  if (receipt.status !== 'success' && !options.allowRevert) {
    throw new PrebuyError('devnet_tx_reverted', `A devnet transaction reverted (${hash}).`, { details: { hash } })
  }
  return receipt
}

export async function mineIfManual(chain: ChainConfig): Promise<void> {
  if (!(await minesByItself(chain.rpcUrl))) await jsonRpc(chain.rpcUrl, 'evm_mine')
}

/** Lets `address` send transactions on anvil and gives it gas money (plus `spendWei` it is about to send) when it has little. */
export async function impersonate(chain: ChainConfig, address: Address, spendWei = 0n): Promise<void> {
  await jsonRpc(chain.rpcUrl, 'anvil_impersonateAccount', [address])
  const balance = BigInt(await jsonRpc<string>(chain.rpcUrl, 'eth_getBalance', [address, 'latest']))
  const enough = 10n ** 19n + spendWei
  if (balance < enough) await jsonRpc(chain.rpcUrl, 'anvil_setBalance', [address, `0x${enough.toString(16)}`])
}
