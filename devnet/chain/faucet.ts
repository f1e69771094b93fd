import { createPublicClient, createWalletClient, getAddress, http, parseAbi, parseUnits, toHex, type Address } from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import { createKeyedMutex } from '../../src/common/keyed-mutex.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { minesByItself } from '../anvil/mining-mode.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'

export { readDeployments } from './deployments-file.ts'

export interface FundAmounts {
  /** Decimal units of the stablecoin ("250.5"), minted to the address. */
  stablecoin?: string
  /** Decimal ETH ("1.5"), added to the address's balance. */
  eth?: string
}

export interface FundedAmounts {
  /** Atomic amounts added, as decimal strings. */
  stablecoin: string
  eth: string
}

const STABLECOIN_ABI = parseAbi([
  'function mint(address to, uint256 amount)',
  'function minter() view returns (address)',
  'function decimals() view returns (uint8)',
])

/**
 * Refuses anything but an embedded anvil chain: the flag on the config, and the node itself saying it is anvil, so a
 * misconfigured real RPC URL can never receive cheat-code calls.
 */
async function assertDevnet(chain: ChainConfig): Promise<void> {
  if (chain.devnet !== true) {
    throw new PrebuyError('not_a_devnet', `The ${chain.key} chain is not a devnet; faucet and mining helpers only work on the embedded devnet.`)
  }
  let version: string
  try {
    version = await clientVersion(chain.rpcUrl)
  } catch (cause) {
    throw new PrebuyError('devnet_unreachable', `The ${chain.key} devnet chain does not answer.`, { cause })
  }
  if (!version.toLowerCase().startsWith('anvil')) {
    throw new PrebuyError('not_a_devnet', `The ${chain.key} chain's node is not anvil; faucet and mining helpers only work on the embedded devnet.`)
  }
}

/** A node's identity does not change under a URL, so it is asked once per URL (tests fund hundreds of wallets). */
const versions = new Map<string, Promise<string>>()
function clientVersion(rpcUrl: string): Promise<string> {
  let version = versions.get(rpcUrl)
  if (!version) {
    version = jsonRpc<string>(rpcUrl, 'web3_clientVersion')
    versions.set(rpcUrl, version)
    // A failed lookup is not remembered: the chain may just be restarting.
    version.catch(() => versions.delete(rpcUrl))
  }
  return version
}

const parseAmount = (value: string, decimals: number, what: string): bigint => {
  if (!/^\d+(\.\d+)?$/.test(value)) throw new PrebuyError('invalid_amount', `The ${what} amount must be a non-negative decimal (got "${value}").`)
  const [, fraction = ''] = value.split('.')
  if (fraction.length > decimals) throw new PrebuyError('invalid_amount', `The ${what} amount has more than ${decimals} decimals.`)
  return parseUnits(value, decimals)
}

/** Serialises read-modify-write balance updates per chain and address within this process. */
const ethLocks = createKeyedMutex()

/**
 * Devnet faucet: mints stablecoin to `address` (a real `mint` transaction from the minter, impersonated, so Transfer
 * events and totalSupply stay right) and adds ETH to its balance (anvil_setBalance). Waits for the mint's receipt;
 * with manual mining it mines the block itself.
 */
export async function fundAccount(chain: ChainConfig, address: Address, amounts: FundAmounts): Promise<FundedAmounts> {
  await assertDevnet(chain)
  let to: Address
  try {
    to = getAddress(address)
  } catch (cause) {
    throw new PrebuyError('invalid_address', `"${address}" is not a valid address.`, { cause })
  }
  const stablecoinAtomic = amounts.stablecoin === undefined ? 0n : parseAmount(amounts.stablecoin, 6, 'stablecoin')
  const ethAtomic = amounts.eth === undefined ? 0n : parseAmount(amounts.eth, 18, 'ETH')

  if (ethAtomic > 0n) {
    await ethLocks.run(`${chain.rpcUrl}:${to}`, async () => {
      const balance = BigInt(await jsonRpc<string>(chain.rpcUrl, 'eth_getBalance', [to, 'latest']))
      await jsonRpc(chain.rpcUrl, 'anvil_setBalance', [to, toHex(balance + ethAtomic)])
    })
  }

  if (stablecoinAtomic > 0n) {
    const viemChain = chainFromConfig(chain)
    const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: 100 })
    const minter = await publicClient.readContract({ address: chain.addresses.stablecoin, abi: STABLECOIN_ABI, functionName: 'minter' })
    await jsonRpc(chain.rpcUrl, 'anvil_impersonateAccount', [minter])
    const walletClient = createWalletClient({ chain: viemChain, account: minter, transport: http(chain.rpcUrl) })
    const hash = await walletClient.writeContract({
      address: chain.addresses.stablecoin,
      abi: STABLECOIN_ABI,
      functionName: 'mint',
      args: [to, stablecoinAtomic],
    })
    if (!(await minesByItself(chain.rpcUrl))) await jsonRpc(chain.rpcUrl, 'evm_mine')
    const receipt = await publicClient.waitForTransactionReceipt({ hash, timeout: 30_000 })
    if (receipt.status !== 'success') throw new PrebuyError('faucet_failed', 'The stablecoin mint reverted.')
  }
  return { stablecoin: stablecoinAtomic.toString(), eth: ethAtomic.toString() }
}

/** Mines `count` blocks at once (anvil_mine), whatever the mining mode. */
export async function mineBlocks(chain: ChainConfig, count = 1): Promise<void> {
  await assertDevnet(chain)
  if (!Number.isInteger(count) || count < 1) throw new PrebuyError('invalid_count', 'The number of blocks must be a whole number >= 1.')
  await jsonRpc(chain.rpcUrl, 'anvil_mine', [toHex(count)])
}

/** Moves the chain's clock forward and mines a block carrying the new time. */
export async function advanceTime(chain: ChainConfig, seconds: number): Promise<void> {
  await assertDevnet(chain)
  if (!Number.isInteger(seconds) || seconds < 1) throw new PrebuyError('invalid_seconds', 'The number of seconds must be a whole number >= 1.')
  await jsonRpc(chain.rpcUrl, 'evm_increaseTime', [seconds])
  await jsonRpc(chain.rpcUrl, 'evm_mine')
}
