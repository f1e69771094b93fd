import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  type Address,
  createWalletClient,
  erc20Abi,
  type Hash,
  type Hex,
  http,
  keccak256,
  parseEventLogs,
  type PublicClient,
  type TransactionReceipt,
  WaitForTransactionReceiptTimeoutError,
  zeroHash,
} from 'viem'
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts'
import { batchBuyerAbi, batchBuyerBytecode } from '../../daemon/executor/batch-buyer-abi.ts'
import { ensureBuyRouter } from '../../daemon/executor/ensure-buy-router.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import type { MiningMode } from '../../devnet/anvil/mining-mode.ts'
import { fundAccount } from '../../devnet/chain/faucet.ts'
import { type Devnet, startDevnet } from '../../devnet/chain/start-devnet.ts'
import { deployDevnetLaunchpads } from '../../devnet/launchpads/deploy-devnet-launchpads.ts'
import { launchToken } from '../../devnet/launchpads/launch-token.ts'
import { devnetPublicClient } from '../../devnet/launchpads/send-devnet-tx.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import type { LaunchpadAddresses } from '../../src/launchpads/create-adapters.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { type SlotHolder, setStablecoinSlots } from './stablecoin-slots.ts'

/**
 * A devnet for PrebuyBatchBuyer's split batch (collect / settle / sweepChunk / cancel / refund): real anvil, the buy
 * router, the batch contract with several operator accounts, and a devnet Doppler pool paired with WETH (route USDC →
 * WETH on the v3 pool → token on the v4 pool). Shared by test/executor/batch-collect.test.ts and the batch bench.
 */
export interface SplitBatchDevnet {
  devnet: Devnet
  chain: ChainConfig
  client: PublicClient
  deployer: PrivateKeyAccount
  operators: PrivateKeyAccount[]
  batch: Address
  buyRouter: Address
  launchpads: LaunchpadAddresses
  feeRecipient: Address
  walletOf(account: PrivateKeyAccount): ReturnType<typeof createWalletClient>
  confirm(hash: Hash, what: string): Promise<TransactionReceipt>
  stop(): Promise<void>
}

export interface LaunchedPool {
  token: Address
  poolKey: PoolKey
  supply: bigint
  /** The block the launch transaction landed in: swaps are possible from the next one on. */
  launchBlock: bigint
}

export async function startSplitBatchDevnet(options: { blockTime: MiningMode; operators: number }): Promise<SplitBatchDevnet> {
  const dataDir = await mkdtemp(join(tmpdir(), 'prebuy-split-batch-'))
  const devnet = await startDevnet({ dataDir, blockTime: options.blockTime })
  const chain = devnet.chains.base
  const client = devnetPublicClient(chain)
  const walletOf = (account: PrivateKeyAccount) => createWalletClient({ chain: chainFromConfig(chain), account, transport: http(chain.rpcUrl) })
  const confirm = async (hash: Hash, what: string): Promise<TransactionReceipt> => {
    // As batch-buyer.test.ts: a transaction seen to sit in a loaded anvil's pool gets a block mined for it (automine only).
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        return await client.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 15_000 })
      } catch (error) {
        if (!(error instanceof WaitForTransactionReceiptTimeoutError)) throw error
        if (options.blockTime === 'auto') await jsonRpc(chain.rpcUrl, 'evm_mine')
      }
    }
    throw new Error(`${what} (${hash}) was never mined`)
  }
  const deployer = devnet.deployer.account
  const launchpads = await deployDevnetLaunchpads(chain, deployer)
  const buyRouter = await ensureBuyRouter({ publicClient: client, walletClient: walletOf(deployer), poolManager: chain.addresses.poolManager })
  const operators = Array.from({ length: options.operators }, () => privateKeyToAccount(generatePrivateKey()))
  for (const operator of operators) await fundAccount(chain, operator.address, { eth: '100' })
  const deployHash = await walletOf(deployer).deployContract({
    abi: batchBuyerAbi,
    bytecode: batchBuyerBytecode,
    args: [buyRouter, deployer.address, operators.map((o) => o.address)],
    chain: chainFromConfig(chain),
    account: deployer,
  })
  const batch = (await confirm(deployHash, 'the batch deployment')).contractAddress!
  return {
    devnet,
    chain,
    client,
    deployer,
    operators,
    batch,
    buyRouter,
    launchpads,
    feeRecipient: privateKeyToAccount(generatePrivateKey()).address,
    walletOf,
    confirm,
    async stop() {
      await devnet.stop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/** A Doppler launch at a constant 1% fee (a quote and a swap a block later see the same pool), as batch-buyer.test.ts. */
export async function launchDopplerPool(d: SplitBatchDevnet, symbol: string): Promise<LaunchedPool> {
  const launched = await launchToken({
    chain: d.chain,
    addresses: d.launchpads,
    launchpad: 'doppler',
    creator: privateKeyToAccount(generatePrivateKey()).address,
    name: `${symbol} coin`,
    symbol,
    startFee: 10_000,
    endFee: 10_000,
    decaySeconds: 1,
  })
  const supply = await d.client.readContract({ address: launched.token, abi: erc20Abi, functionName: 'totalSupply' })
  return { token: launched.token, poolKey: launched.poolKey, supply, launchBlock: launched.blockNumber }
}

/** The router's buy parameters for a pool (orderId, amountIn and minTokensOut are the batch's to set). */
export const routeOf = (d: SplitBatchDevnet, pool: LaunchedPool) => ({
  orderId: zeroHash,
  stablecoin: d.chain.addresses.stablecoin,
  weth: d.chain.addresses.weth,
  ethUsdPool: d.chain.addresses.ethUsdPool,
  bridge: [],
  poolKey: pool.poolKey,
  token: pool.token,
  amountIn: 0n,
  minTokensOut: 0n,
  feeRecipient: d.feeRecipient,
  feeBps: 300n,
})

/** `count` addresses nobody holds a key for, distinct per `seed`: buyers funded and approving through storage slots. */
export function slotBuyers(seed: string, count: number): Address[] {
  return Array.from({ length: count }, (_, i) => `0x${keccak256(`0x${Buffer.from(`${seed}:${i}`).toString('hex')}` as Hex).slice(26)}` as Address)
}

/** Funds and approves `buyers` to the batch contract through the stablecoin's storage (stablecoin-slots.ts). */
export async function fundThroughSlots(d: SplitBatchDevnet, buyers: readonly Address[], balance: bigint, allowance: bigint): Promise<void> {
  const holders: SlotHolder[] = buyers.map((owner) => ({ owner, balance, spender: d.batch, allowance }))
  await setStablecoinSlots(d.chain.rpcUrl, d.chain.addresses.stablecoin, holders)
}

type Log = { eventName: string; args: Record<string, unknown> }

/** The batch contract's events in a receipt. */
export const batchEvents = (receipt: TransactionReceipt): Log[] => parseEventLogs({ abi: batchBuyerAbi, logs: receipt.logs }) as unknown as Log[]
