import type { ChainKey } from '../chain/chain-keys.ts'
import type { BlockEntry, BlockType, DeskSettings, LaunchMethod, Launchpad, ProjectRecord, ReviewItem, ReviewKind, ReviewStatus } from '../domain/records.ts'

/**
 * The admin API's request and response types, shared by the daemon (daemon/admin) and the CLI's client, so both
 * sides are checked by the compiler against one definition.
 */

export type { BlockEntry, BlockType, DeskSettings, LaunchMethod, Launchpad, ProjectRecord, ReviewItem, ReviewKind, ReviewStatus }

export interface DaemonStatus {
  pid: number
  url: string
  adminUrl: string
  dataDir: string
  startedAt: string
  uptimeSeconds: number
  chains: { mode: 'devnet' | 'rpc'; chainIds: Record<ChainKey, number> }
}

export interface ApproveRegistrationRequest {
  slug: string
  creator: string
  launchpad: Launchpad
  chain: ChainKey
  method?: LaunchMethod
  /** Label of the owner's key; defaults to the slug. */
  label?: string
}

/** A newly issued key: the plaintext appears here once and is never stored or shown again. */
export interface IssuedKey {
  apiKey: string
  keyId: string
  label: string
  serviceWalletAddress: string
}

export interface ApproveRegistrationResult {
  review: ReviewItem
  project: ProjectRecord
  key: IssuedKey
}

export interface ApproveKeyRequestRequest {
  /** Defaults to the request's project name (made unique). */
  label?: string
}

export interface ApproveKeyRequestResult {
  review: ReviewItem
  key: IssuedKey
}

export interface KeySummary {
  keyId: string
  label: string
  serviceWalletAddress: string
  createdAt: number
  revokedAt: number | null
  ownedProjectSlugs: string[]
}

/** A partial profile (spec section 2.3); given fields replace the stored ones, the slug never changes. */
export interface ProfileUpdate {
  identity?: { displayName?: string; socialId?: number; microblogHandle?: string | null; socialUsername?: string }
  content?: {
    bannerImageUrl?: string
    pfpUrl?: string
    bio?: string[]
    websiteUrl?: string
    teamMembers?: Array<{ name: string; pfpUrl: string; followerCount: number; socialUrl: string; roles: Array<{ projectName: string; title: string }> }>
  }
  status?: { isProfileRegistered?: boolean; isLaunchVerified?: boolean; hasSniperProtection?: boolean }
}

export interface BlockRequest {
  type: BlockType
  value: string
  note?: string
}

export interface DeskUpdate {
  open: boolean
  retryAfterSeconds?: number
}

export interface FundRequest {
  address: string
  chain?: ChainKey
  /** Decimal stablecoin units. */
  usdc?: string
  /** Decimal ETH. */
  eth?: string
}

export interface FundResult {
  chain: ChainKey
  address: string
  /** Atomic amounts credited. */
  usdc: string
  eth: string
}

export interface MineResult {
  chain: ChainKey | 'all'
  blocks: number
  blockNumbers: Record<string, string>
}

export type Deployments = Record<string, unknown>

export interface DevnetLaunchRequest {
  launchpad: Launchpad
  creator: string
  chain?: ChainKey
  name?: string
  symbol?: string
  /** Launch fee in pips (1,000,000 = 100%). */
  startFee?: number
  endFee?: number
  decaySeconds?: number
}

export interface DevnetLaunchResult {
  chain: ChainKey
  launchpad: Launchpad
  creator: string
  token: string
  poolId: string
  txHash: string
  blockNumber: string
}

export interface DevnetSwapRequest {
  token: string
  /** Decimal stablecoin amount. */
  usdc: string
  chain?: ChainKey
}

export interface DevnetSwapResult {
  chain: ChainKey
  token: string
  usdc: string
  txHash: string
  blockNumber: string
  /** Tokens received, atomic units. */
  tokensOut: string
  /** Fee the pool charged on this swap, pips. */
  feePips: number
}

/** Every admin API error: the status title, a message for the operator and a stable machine code. */
export interface AdminErrorBody {
  error: string
  message: string
  code: string
}
