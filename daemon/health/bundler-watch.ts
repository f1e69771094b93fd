import { type Address, createPublicClient, formatEther, type Hex, http, parseEther } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { enabledChainKeys } from '../../src/chain/enabled-chains.ts'
import type { Logger } from '../../src/common/logger.ts'
import { withDeadline } from '../../src/common/with-deadline.ts'
import { createL1DataFeeReader, type L1DataFeeReader, RESERVED_LAUNCH_OPERATIONS, sampleBundleTransaction } from '../../src/chain/l1-data-fee.ts'
import { type BundlerBalanceLevel, bundlerAlert, bundlerLevel } from '../../src/domain/health/bundler-balance.ts'

export interface BundlerBalance {
  address: Address
  /** ETH, decimal; null when the chain did not answer. */
  balanceEth: string | null
  level: BundlerBalanceLevel
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
  /** Under this the bundler is low (config wallet.bundlerLowEth). */
  lowEth: string
  logger: Logger
  intervalMs?: number
  /** While low, the warning is repeated this often. */
  repeatMs?: number
  now?: () => number
}

/**
 * Watches the ETH of the service's bundler EOA on each chain (it pays the gas of every buy): a warning in the logs when
 * it falls under `lowEth` (again every 10 minutes while low), a note when it recovers; `daemon status` shows the
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
    enabled.map((key) => [key, createPublicClient({ transport: http(deps.chains[key].rpcUrl, { retryCount: 0 }) })]),
  ) as Record<ChainKey, ReturnType<typeof createPublicClient>>
  // The L1 data fee of a launch's first bundle (OP-stack chains; 0 on the devnet, which has no GasPriceOracle) is
  // charged from the same balance as its gas: the low mark keeps room for it. Unreadable counts as 0 (the mark alone).
  const l1Fees = Object.fromEntries(enabled.map((key) => [key, createL1DataFeeReader(clients[key])])) as Record<ChainKey, L1DataFeeReader>
  const launchBundles = Object.fromEntries(
    enabled.map((key) => [key, sampleBundleTransaction(deps.chains[key].chainId, deps.chains[key].addresses.entryPoint, RESERVED_LAUNCH_OPERATIONS)]),
  ) as Record<ChainKey, Hex>
  const previous = new Map<ChainKey, { level: BundlerBalanceLevel; warnedAt: number | null }>()
  const latest: Partial<Record<ChainKey, BundlerBalance>> = {}

  async function checkChain(chain: ChainKey): Promise<BundlerBalance> {
    const address = deps.bundlerAddress(chain)
    const [balance, l1DataFee] = await Promise.all([
      withDeadline(clients[chain].getBalance({ address }), 5_000, () => new Error('no answer')).catch(() => null),
      withDeadline(l1Fees[chain].feeOf(launchBundles[chain]), 5_000, () => new Error('no answer')).catch(() => 0n),
    ])
    const level = bundlerLevel(balance, lowWei, l1DataFee)
    const before = previous.get(chain) ?? { level: 'unknown' as const, warnedAt: null }
    const alert = bundlerAlert(before.level, level, before.warnedAt, now(), repeatMs)
    const balanceEth = balance === null ? null : formatEther(balance)
    if (alert === 'warn_low') {
      deps.logger.warn(
        { chain, bundler: address, balanceEth, lowEth: deps.lowEth, l1DataFeeEth: formatEther(l1DataFee) },
        'bundler ETH is low: launch buys may fail to send; fund it',
      )
    }
    if (alert === 'recovered') deps.logger.info({ chain, bundler: address, balanceEth }, 'bundler ETH is back above the low mark')
    previous.set(chain, { level: level === 'unknown' ? before.level : level, warnedAt: alert === 'warn_low' ? now() : before.warnedAt })
    latest[chain] = { address, balanceEth, level }
    return latest[chain]
  }

  const check = async () =>
    Object.fromEntries(await Promise.all(enabled.map(async (chain) => [chain, await checkChain(chain)] as const))) as Partial<Record<ChainKey, BundlerBalance>>
  const timer = setInterval(() => void check().catch(() => undefined), deps.intervalMs ?? 60_000)
  timer.unref()
  void check().catch(() => undefined)
  return { check, latest: () => ({ ...latest }), stop: () => clearInterval(timer) }
}
