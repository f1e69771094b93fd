import type { LockTerms } from '../launch-methods/vesting/domain/lock-terms.ts'
import type { ChainKey } from '../chain/chain-keys.ts'

/**
 * The records the store keeps. They are plain JSON (LevelDB values), shared by the store, the services and the
 * executor; amounts are decimal strings so no precision is lost in JSON.
 */

export interface ApiKeyRecord {
  id: string
  /** sha256 of the plaintext key, hex. The plaintext is never stored. */
  keyHash: string
  label: string
  /** Wallet index for the WalletService; allocated once, never reused. */
  userIndex: number
  walletAddress: string
  createdAt: number
  revokedAt: number | null
  /** When the secret was last replaced (`prebuy keys rotate`); absent: never. */
  rotatedAt?: number
}

/** A linked social profile; without one a buyer's follower count is 0. */
export interface SocialProfile {
  socialId: number
  socialUsername: string
  socialUrl: string
  followerCount: number
}

/** The buyer behind a key (one per key). */
export interface UserRecord {
  keyId: string
  userIndex: number
  social?: SocialProfile
}

export const LAUNCHPADS = ['clanker', 'doppler', 'zora', 'clanker_v5'] as const
export type Launchpad = (typeof LAUNCHPADS)[number]

export const LAUNCH_METHODS = ['open_market', 'dev_buy', 'pooled_otc'] as const
export type LaunchMethod = (typeof LAUNCH_METHODS)[number]

export interface TeamMemberRole {
  projectName: string
  title: string
}

export interface TeamMember {
  name: string
  pfpUrl: string
  followerCount: number
  socialUrl: string
  roles: TeamMemberRole[]
}

/** Section 2.3 of the spec, field for field. */
export interface ProjectProfile {
  identity: {
    slug: string
    displayName: string
    socialId: number
    microblogHandle: string | null
    socialUsername: string
  }
  content: {
    bannerImageUrl: string
    pfpUrl: string
    bio: string[]
    websiteUrl: string
    teamMembers: TeamMember[]
  }
  status: {
    isProfileRegistered: boolean
    isLaunchVerified: boolean
    hasSniperProtection: boolean
  }
}

/** Filled in by the launch indexer; null until the token launches. */
export interface LaunchInfo {
  chain: ChainKey
  tokenAddress: string
  symbol: string
  name: string
  decimals: number
  launchedAt: number
  blockNumber?: string
  txHash?: string
}

export interface ProjectRecord {
  slug: string
  profile: ProjectProfile
  /** The registered deployer: a launch binds the project only when sent by it (see judge-launch.ts). */
  creatorAddress: string
  /** The token address recorded before launch (null: not recorded): with the deployer, it binds (judge-launch.ts). */
  expectedTokenAddress: string | null
  /** The token symbol recorded at approval (absent or null: none): with the deployer, a launch of that symbol binds. */
  expectedSymbol?: string | null
  /** The token name recorded with the symbol (absent or null: none); when recorded, a launch must have it too. */
  expectedName?: string | null
  launchpad: Launchpad
  chain: ChainKey
  launchMethod: LaunchMethod
  ownerKeyId: string | null
  status: 'approved'
  /** The review item this project came from, when it came from one. */
  registrationId: string | null
  launch: LaunchInfo | null
  /** A pooled_otc project's offer (set by its owner, deposited from its wallet, settled by the daemon); absent: none. */
  otc?: OtcOffer
  /** A dev_buy project's launch (parameters set by its owner, launched by the daemon when asked); absent: none. */
  devBuy?: DevBuyLaunchRecord
  /** The owner's changes of what the orders buy, waiting for the operator or their notice period (owner-changes.ts); absent: none. */
  pendingChanges?: PendingOwnerChange[]
  /** Changes of what the orders buy that took effect (the owner's, confirmed; the operator's) and rejected proposals; absent: none. */
  changeHistory?: OwnerChangeEntry[]
  createdAt: number
  updatedAt: number
}

/** What the owner sets for a dev-buy launch: the token's identity (the pool and fees are the launchpad's defaults). */
export interface DevBuyParams {
  name: string
  symbol: string
  /** Image URL ('' for none). */
  image: string
  /** Free text the launchpad stores with the token (Clanker's metadata: a description, links). */
  metadata: string
  /** The token's admin on the launchpad (Clanker tokenAdmin): the owner key's wallet unless set. */
  tokenAdmin: string
  /** Lock and vesting of the buyers' shares after the launch block (no lock: straight to the wallets). */
  lock: LockTerms
  /** The launchpad settings the owner chose; absent: the chain's defaults (ClankerDevBuySetup). */
  pool?: DevBuyPoolShape
}

/**
 * A Clanker launch's pool, as the owner sets it: the starting tick (tickIfToken0IsClanker: its starting market cap), the
 * LP locker's positions (ticks as if the token were currency0, basis points of the pool supply) and the static LP fee.
 */
export interface DevBuyPoolShape {
  startingTick: number
  positions: Array<{ tickLower: number; tickUpper: number; bps: number }>
  lpFeePips: number
}

/** A dev-buy launch (docs/launch-methods.md): the service deploys the token with one block-zero buy for the orders. */
export interface DevBuyLaunchRecord {
  /** The launch's id on the coordinator contract (bytes32 hex): devBuyLaunchId(slug); used on chain once, by the launch. */
  launchId: string
  params: DevBuyParams
  /** When the owner or the operator asked to launch (ms since epoch); null: not asked yet, parameters still editable. */
  requestedAt: number | null
  state: DevBuyLaunchState | null
  /**
   * The coordinator contract the launch is sent through, recorded with the expected token before anything is sent: a
   * launch binds the project only when this contract deployed the expected token (judge-launch.ts), never a token
   * someone else deployed at that address. Absent before the first attempt.
   */
  coordinator?: string
}

export type DevBuyLaunchState =
  /** Orders moved to executing; the launch transaction is being prepared, sent (txHash) or awaited; token: predicted. */
  | {
      status: 'launching'
      since: number
      txHash?: string
      token?: string
      /**
       * The attempt's Clanker salt (bytes32 hex): drawn at random for each attempt and secret until its launch
       * transaction is sent, so nobody can deploy the token first (docs/launch-methods.md, "Who can call what"). Never
       * shown by any view. Absent in records written before it: those attempts used the launch id.
       */
      salt?: string
      /** Which attempt this is (1 for the first; one more after each `retrying`); absent: 1. */
      attempt?: number
      /** A round of this attempt failed after its transaction may have been sent: why, how often, and when to look again. */
      lastError?: string
      failures?: number
      nextAttemptAt?: number
      /**
       * The keys whose orders this launch moved to executing: its buyers. After a crash only these are the launch's; any
       * other executing order of the project is another writer's (an open-market buy in flight once the indexer bound
       * the launch). Absent in records written before it: every executing order of the project is taken as the launch's.
       */
      orderKeyIds?: string[]
    }
  | {
      status: 'launched'
      txHash: string
      blockNumber: string
      token: string
      /** Stablecoin paid in (atoms), ETH it bought (wei), tokens the dev buy bought and the platform fee (atoms). */
      stableInAtoms: string
      ethInWei: string
      bought: string
      fee: string
      filledOrders: number
      at: number
    }
  /** The last attempt failed without moving anything; retried after a pause that doubles with each attempt. */
  | { status: 'retrying'; reason: string; attempts: number; since: number }
  /**
   * Nothing launched and nothing retried: no order could take part (limits below the launch price, empty wallets), or
   * every attempt failed. Ask again later (the parameters can change meanwhile).
   */
  | { status: 'not_launched'; reason: string; at: number }

/** A pooled OTC offer (docs/launch-methods.md): a fixed token amount at a fixed FDV, settled in one transaction. */
export interface OtcOffer {
  /** The offer's id on the settlement contract (bytes32 hex): otcOfferId(slug, round). */
  offerId: string
  /** Which offer of the project this is: 0 for the first, one more after each cancelled offer (absent: 0). */
  round?: number
  /** The OTC price as an FDV, decimal USDC. */
  fdvUsdc: string
  tokenAddress: string
  tokenSymbol: string
  tokenDecimals: number
  /** The token's total supply, atomic units (the price of one atom is fdv / totalSupply). */
  totalSupply: string
  /** Tokens offered, atomic units. */
  tokenAmount: string
  /** Earliest settlement, ms since epoch. */
  settleAt: number
  /**
   * Lock and vesting of the buyers' tokens after the settlement block (src/launch-methods/vesting/domain/lock-terms.ts);
   * absent (offers recorded before lock terms existed): none. Fixed on chain at deposit like the rest of the terms.
   */
  lock?: LockTerms
  /** The owner's wallet deposited the tokens into the settlement contract (txHash null: found on chain, its record lost); null: not yet. */
  deposit: {
    txHash: string | null
    blockNumber: string | null
    at: number
    /**
     * The wallet that deposited: the offer is stored on chain under otcOfferKey(project, offerId) and pays this wallet
     * (absent in records written before the v3 contract: the owner key's wallet).
     */
    project?: string
  } | null
  settlement: OtcSettlementState | null
  /**
   * Ids this project's offer left, oldest first, and why: an on-chain offer under the id whose terms differed from the
   * record (never counted as the deposit, never settled); the offer moved to a fresh id (issue 19). Absent: none.
   */
  superseded?: OtcSupersededOffer[]
}

export interface OtcSupersededOffer {
  offerId: string
  reason: string
  at: number
}

export type OtcSettlementState =
  /** Orders moved to executing; the settlement transaction is being prepared, sent (txHash, once sent) or awaited. */
  | { status: 'settling'; since: number; txHash?: string }
  | {
      status: 'settled'
      txHash: string
      blockNumber: string
      /** Tokens sold (before the fee) and returned to the project, atomic units; stablecoin paid to the project, atoms. */
      sold: string
      unsold: string
      proceedsAtoms: string
      filledOrders: number
      at: number
    }
  /** The last attempt failed without moving anything; retried after a pause that doubles with each attempt. */
  | { status: 'retrying'; reason: string; attempts: number; since: number }
  /** The project cancelled the offer on chain: nothing was sold. */
  | { status: 'cancelled'; at: number }

/**
 * Order states. `active` and `deleted` are the spec's; the executor moves an order active -> executing ->
 * filled | failed, or active -> expired once `launchedAt + expiresInMs` has passed.
 */
export const ORDER_STATUSES = ['active', 'deleted', 'executing', 'filled', 'expired', 'failed'] as const
export type OrderStatus = (typeof ORDER_STATUSES)[number]

/** What happened when the order was executed (set by the executor). */
export interface OrderExecution {
  /** Stablecoin spent, decimal USDC. */
  spentUsdc: string
  /** Tokens received by the buyer after the platform fee, atomic units. */
  tokensReceived: string
  /** Platform fee taken in the bought token, atomic units. */
  feeTokens: string
  txHash: string
  executedAt: number
  /** Why a failed order failed. */
  failureReason?: string
  /** The tokens went into a vesting position in the wallet's name (a locked launch method), not to the wallet. */
  vesting?: OrderVesting
  /**
   * Bought in a batch (one swap, one price for every order of the block): the tokens are credited by the batch contract
   * and reach the wallet with a sweep in a later block.
   */
  batch?: OrderBatchCredit
}

/** Where a batch-bought order's tokens are until swept (PrebuyBatchBuyer's committed allocation). */
export interface OrderBatchCredit {
  chain: ChainKey
  /** The PrebuyBatchBuyer contract. */
  contract: string
  batchId: string
}

/** A filled order's vesting position, as created on chain (PositionCreated in the settling transaction). */
export interface OrderVesting {
  chain: ChainKey
  /** The PrebuyVesting contract holding the position. */
  contract: string
  /** Position id on that contract, decimal. */
  positionId: string
  tokenAddress: string
  /** Tokens in the position (= tokensReceived), atomic units. */
  total: string
  /** Unix seconds: the settlement block's time, the end of the lockup, the vesting period. */
  start: number
  lockupEnd: number
  vestingSeconds: number
}

export interface OrderRecord {
  keyId: string
  slug: string
  status: OrderStatus
  /** Decimal USDC, at most 6 decimals, normalised (no trailing zeros). */
  maxSpendUsdc: string
  /** Decimal USD or null for no price limit. */
  maxFdvUsdc: string | null
  expiresInMs: number
  createdAt: number
  updatedAt: number
  execution?: OrderExecution
}

export const REVIEW_KINDS = ['key_request', 'registration', 'feedback'] as const
export type ReviewKind = (typeof REVIEW_KINDS)[number]
export const REVIEW_STATUSES = ['pending', 'approved', 'rejected'] as const
export type ReviewStatus = (typeof REVIEW_STATUSES)[number]

export interface KeyRequestSubmission {
  useCases: Array<'buying_pre_launch_tokens' | 'launching_a_token'>
  projectName: string
  projectUrls: string[]
  projectInfo: string
  contact: string
  businessSignOff?: string
}

export interface RegistrationSubmission {
  projectName: string
  projectUrls: string[]
  projectInfo: string
  contact: string
  email: string
  businessSignOff?: string
}

export interface FeedbackSubmission {
  message: string
  name: string
  contact: string
}

interface ReviewBase {
  id: string
  status: ReviewStatus
  requesterIp: string
  createdAt: number
  decidedAt: number | null
  /** Operator's note on approval or rejection. */
  decisionNote?: string
  /** Key issued on approval (id only; the plaintext is shown once to the operator). */
  issuedKeyId?: string
  /** Project created on approval of a registration. */
  projectSlug?: string
}

export type ReviewItem =
  | (ReviewBase & { kind: 'key_request'; submission: KeyRequestSubmission })
  | (ReviewBase & { kind: 'registration'; submission: RegistrationSubmission })
  | (ReviewBase & { kind: 'feedback'; submission: FeedbackSubmission })

export const BLOCK_TYPES = ['ip', 'email', 'contact'] as const
export type BlockType = (typeof BLOCK_TYPES)[number]

export interface BlockEntry {
  type: BlockType
  /** Normalised: trimmed and lower-cased. */
  value: string
  createdAt: number
  note?: string
}

export interface DeskSettings {
  open: boolean
  /** Seconds clients are told to wait (Retry-After) while the desk is closed. */
  retryAfterSeconds: number
  updatedAt: number
}

// Changes of what a project's orders buy (src/domain/owner-changes.ts, docs/owner-changes.md).

export const OWNER_CHANGE_KINDS = ['launch_binding', 'otc_offer'] as const
export type OwnerChangeKind = (typeof OWNER_CHANGE_KINDS)[number]

/** The binding terms a change sets (the registered deployer stays the operator's). */
export interface BindingTerms {
  creatorAddress: string
  expectedTokenAddress: string | null
  /** The symbol (and name) recorded as the second fact; absent in changes recorded before them: unchanged. */
  expectedSymbol?: string | null
  expectedName?: string | null
}

/** What a change proposes: the whole new binding, or the whole new offer (not deposited, not settled). */
export type ProposedTerms = { kind: 'launch_binding'; binding: BindingTerms } | { kind: 'otc_offer'; offer: OtcOffer }

/** An owner's change waiting for the operator, or confirmed and waiting for its notice period to pass. */
export type PendingOwnerChange = ProposedTerms & {
  /** When the owner proposed it (ms); a new proposal of the same kind replaces it and starts over. */
  proposedAt: number
  /** When the operator confirmed it; null: not yet (nothing changes until then). */
  confirmedAt: number | null
  /** When it takes effect (set at confirmation): the confirmation, or its time + the notice period. */
  effectiveAt: number | null
  /** Live orders placed before the proposal, counted at the confirmation: why a notice period applies. */
  ordersBefore: number | null
}

/** A summary of terms, as the history shows them before and after a change. */
export type TermsSummary =
  | { kind: 'launch_binding'; creatorAddress: string; expectedTokenAddress: string | null; expectedSymbol?: string | null; expectedName?: string | null }
  | {
      kind: 'otc_offer'
      tokenAddress: string
      tokenSymbol: string
      tokenAmount: string
      tokenDecimals: number
      totalSupply: string
      fdvUsdc: string
      settleAt: number
      lockSeconds: number
      vestingSeconds: number
    }

export interface OwnerChangeEntry {
  kind: OwnerChangeKind
  /** Who made it: the owner's key (confirmed by the operator) or the operator directly. */
  by: 'owner' | 'operator'
  outcome: 'effective' | 'rejected'
  /** Terms before (null: none, e.g. a first offer) and the terms the change set (or proposed, if rejected). */
  from: TermsSummary | null
  to: TermsSummary
  proposedAt: number | null
  /** Confirmation or rejection by the operator (null: the operator's own edit). */
  decidedAt: number | null
  /** When it took effect (null: rejected). */
  effectiveAt: number | null
  /** The operator's reason for a rejection. */
  reason: string | null
}
