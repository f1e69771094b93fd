import { type Address, createPublicClient, formatEther, type Hex, parseEther } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { enabledChainKeys } from '../../src/chain/enabled-chains.ts'
import type { Logger } from '../../src/common/logger.ts'
import { withDeadline } from '../../src/common/with-deadline.ts'
import { createL1DataFeeReader, type L1DataFeeReader, RESERVED_LAUNCH_OPERATIONS, sampleBundleTransaction } from '../../src/chain/l1-data-fee.ts'
import { type BundlerBalanceLevel, bundlerAlert, bundlerLevel } from '../../src/domain/health/bundler-balance.ts'
import { rpcHttp } from '../../src/chain/rpc-http.ts'

export interface SenderBalance {
  address: Address
  /** ETH, decimal; null when the chain did not answer. */
  balanceEth: string | null
  level: BundlerBalanceLevel
}

/** The bundler EOA's balance (sender account 0), and every sender account's, the bundler first (wallet.senderAccounts). */
export interface BundlerBalance extends SenderBalance {
  senders: SenderBalance[]
}

export interface BundlerWatch {
  /** Reads every bundler's balance now (within a few seconds), logs what changed, and returns them. */
  /** A chain the daemon does not run on (disabled) is absent. */
  check(): Promise<Partial<Record<ChainKey, BundlerBalance>>>
  /** The balances of the latest check (each chain's once it has been read): metrics read these without an RPC call. */
  latest(): Partial<Record<ChainKey, BundlerBalance>>
  stop(): void
}

export interface BundlerWatchDeps {
  chains: Record<ChainKey, ChainConfig>
  bundlerAddress(chain: ChainKey): Address
  /** Every sender account of the chain, the bundler first (default: the bundler alone); each is watched on its own. */
  senderAddresses?(chain: ChainKey): readonly Address[]
  /** Under this the bundler is low (config wallet.bundlerLowEth). */
  lowEth: string
  logger: Logger
  intervalMs?: number
  /** While low, the warning is repeated this often. */
  repeatMs?: number
  now?: () => number
}

/**
 * Watches the ETH of the service's sender accounts on each chain (the bundler EOA and the others of
 * wallet.senderAccounts; together they pay the gas of every buy): a warning in the logs when one falls under `lowEth` (again every 10 minutes while low), a note when it recovers; `daemon status` shows the
 * balances. Withdrawals already refuse to spend below the reserve (withdrawals.bundlerReserveEth), so launch buys keep
 * priority.
 */
export function startBundlerWatch(deps: BundlerWatchDeps): BundlerWatch {
  const lowWei = parseEther(deps.lowEth)
  const now = deps.now ?? Date.now
  const repeatMs = deps.repeatMs ?? 600_000
  // A disabled chain (left out of the rpc config) has no bundler to watch: absent from the readings.
  const enabled = enabledChainKeys(deps.chains)
  const clients = Object.fromEntries(
    enabled.map((key) => [key, createPublicClient({ transport: rpcHttp(deps.chains[key].rpcUrl, { retryCount: 0 }) })]),
  ) as Record<ChainKey, ReturnType<typeof createPublicClient>>
  // The L1 data fee of a launch's first bundle (OP-stack chains; 0 on the devnet, which has no GasPriceOracle) is
  // charged from the same balance as its gas: the low mark keeps room for it. Unreadable counts as 0 (the mark alone).
  const l1Fees = Object.fromEntries(enabled.map((key) => [key, createL1DataFeeReader(clients[key])])) as Record<ChainKey, L1DataFeeReader>
  const launchBundles = Object.fromEntries(
    enabled.map((key) => [key, sampleBundleTransaction(deps.chains[key].chainId, deps.chains[key].addresses.entryPoint, RESERVED_LAUNCH_OPERATIONS)]),
  ) as Record<ChainKey, Hex>
  // Per chain and account: each sender account pays the gas of the transactions it sends, so each is low on its own.
  const previous = new Map<string, { level: BundlerBalanceLevel; warnedAt: number | null }>()
  const latest: Partial<Record<ChainKey, BundlerBalance>> = {}

  async function checkAccount(chain: ChainKey, address: Address, l1DataFee: bigint): Promise<SenderBalance> {
    const balance = await withDeadline(clients[chain].getBalance({ address }), 5_000, () => new Error('no answer')).catch(() => null)
    const level = bundlerLevel(balance, lowWei, l1DataFee)
    const key = `${chain}|${address.toLowerCase()}`
    const before = previous.get(key) ?? { level: 'unknown' as const, warnedAt: null }
    const alert = bundlerAlert(before.level, level, before.warnedAt, now(), repeatMs)
    const balanceEth = balance === null ? null : formatEther(balance)
    if (alert === 'warn_low') {
      deps.logger.warn(
        { chain, bundler: address, balanceEth, lowEth: deps.lowEth, l1DataFeeEth: formatEther(l1DataFee) },
        'bundler ETH is low: launch buys may fail to send; fund it',
      )
    }
    if (alert === 'recovered') deps.logger.info({ chain, bundler: address, balanceEth }, 'bundler ETH is back above the low mark')
    previous.set(key, { level: level === 'unknown' ? before.level : level, warnedAt: alert === 'warn_low' ? now() : before.warnedAt })
    return { address, balanceEth, level }
  }

  async function checkChain(chain: ChainKey): Promise<BundlerBalance> {
    const bundler = deps.bundlerAddress(chain)
    const others = (deps.senderAddresses?.(chain) ?? []).filter((address) => address.toLowerCase() !== bundler.toLowerCase())
    const l1DataFee = await withDeadline(l1Fees[chain].feeOf(launchBundles[chain]), 5_000, () => new Error('no answer')).catch(() => 0n)
    const senders = await Promise.all([bundler, ...others].map((address) => checkAccount(chain, address, l1DataFee)))
    latest[chain] = { ...senders[0]!, senders }
    return latest[chain]
  }

  const check = async () =>
    Object.fromEntries(await Promise.all(enabled.map(async (chain) => [chain, await checkChain(chain)] as const))) as Partial<Record<ChainKey, BundlerBalance>>
  const timer = setInterval(() => void check().catch(() => undefined), deps.intervalMs ?? 60_000)
  timer.unref()
  void check().catch(() => undefined)
  return { check, latest: () => ({ ...latest }), stop: () => clearInterval(timer) }
}
