import type { Address } from 'viem'
import type { PoolKey } from '../launchpads/launchpad-adapter.ts'
import type { WithdrawalPolicy } from '../wallets/withdrawal-policy.ts'
import type { DevnetChainsConfig, RpcChainsConfig } from './config-schema.ts'
import type { PriorityFeeConfig } from './priority-fee-config.ts'

/** The validated, fully resolved configuration the daemon is composed from. */
export interface PrebuyConfig {
  host: string
  port: number
  /** Loopback only. */
  adminPort: number
  /** Absolute path. */
  dataDir: string
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent'
  chains: DevnetChainsConfig | RpcChainsConfig
  /** Public API requests logged per minute; the rest are counted in one summary line. */
  requestLogPerMinute: number
  rateLimits: { perKeyPerMinute: number; apiKeyCreationPerIpPerHour: number; submissionsPerIpPerHour: number }
  /** The reverse proxies (addresses or CIDRs) whose X-Forwarded-For is believed; false: none. */
  trustProxy: false | readonly string[]
  /** Exact browser origins allowed to call the public API (CORS); empty: none. */
  cors: { origins: readonly string[] }
  feeRecipient: Address
  /**
   * priorityFee: the tip policy of the bundler EOA's transactions as configured (decimal strings, printable); the
   * daemon turns it into wei with toPriorityFeePolicy (priority-fee-config.ts).
   */
  wallet: {
    accountKind: 'simple' | 'kernel'
    deployAhead: boolean
    bundlerLowEth: string
    priorityFee: PriorityFeeConfig
    /** Sender accounts per chain; unset: the mode's default (senderAccountsOf in config-schema.ts). */
    senderAccounts?: number | undefined
  }
  /** Launch authenticity: deployers shared by many creators (see src/domain/launches/judge-launch.ts). */
  /** zoraEthPool: the ZORA route's pool on real Base (launches.zoraEthPool), checked when the config was read. */
  launches: { sharedDeployers: readonly Address[]; zoraEthPool?: PoolKey }
  /** Notice period of an owner's change of what the orders buy, once the operator confirmed it (docs/owner-changes.md). */
  ownerChanges: { noticeHours: number }
  /** Withdrawal limits (the service pays their gas). */
  withdrawals: WithdrawalPolicy
  /**
   * Encrypts the wallets' master secret. From PREBUY_PASSPHRASE; on devnet generated once and kept in the data dir.
   * Secret: never log it (use describeConfig for a printable view).
   */
  passphrase: string
  /** Where the passphrase came from, for logs and status (never the value itself). */
  passphraseSource: 'env' | 'devnet-file'
}
