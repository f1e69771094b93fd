import { z } from 'zod'
import { CHAIN_KEYS, type ChainKey } from '../chain/chain-keys.ts'
import { publicText } from '../common/public-text.ts'
import { addressSchema, httpUrlSchema } from '../common/schemas.ts'
import { decimalSchema } from '../domain/decimal.ts'
import { slugSchema } from '../domain/slug.ts'
import { EVENT_SCOPES } from './console-events.ts'
import { DevBuyParamsBody, OtcOfferBody, SimulationQuery } from '../api/schemas.ts'
import type { OtcOfferView } from '../launch-methods/pooled-otc/domain/otc-view.ts'
import type { DevBuyLaunchView } from '../launch-methods/dev-buy/domain/dev-buy-view.ts'
import type { PendingChangeView, ProjectChangesView, TermsView } from '../domain/owner-change-view.ts'
import { OWNER_CHANGE_KINDS } from '../domain/owner-changes.ts'
export type { LaunchSimulation } from '../services/launch-simulation-service.ts'
import type { ReadinessReport } from '../domain/health/readiness.ts'
import {
  BLOCK_TYPES,
  LAUNCH_METHODS,
  LAUNCHPADS,
  REVIEW_KINDS,
  REVIEW_STATUSES,
  type BlockEntry,
  type BlockType,
  type DeskSettings,
  type LaunchMethod,
  type Launchpad,
  type ProjectRecord,
  type ReviewItem,
  type ReviewKind,
  type ReviewStatus,
  type SocialProfile,
} from '../domain/records.ts'

/**
 * The admin API's contract (routes under `/admin/v1`, served by daemon/admin, called by src/admin-client and the CLI
 * commands): the zod schemas the daemon validates requests with, the request types inferred from them and the
 * response types, so both sides are checked by the compiler against one definition.
 */

export type { BlockEntry, BlockType, DeskSettings, LaunchMethod, Launchpad, ProjectRecord, ReviewItem, ReviewKind, ReviewStatus }

// Requests.

/** Key labels and every profile text: the public-text rule (src/common/public-text.ts), as on the public API. */
const label = publicText({ max: 100 })
const httpUrl = httpUrlSchema
/**
 * The devnet Clanker's MEV modules (devnet/launchpads/launch-token.ts DEVNET_CLANKER_MEV_MODULES): SniperAuctionV2,
 * Base's v4.1 one, and Clanker v4.0's SniperAuctionV0 and MevBlockDelay.
 */
export const DEVNET_CLANKER_MEV_MODULES = ['sniper_auction_v2', 'sniper_auction_v0', 'block_delay'] as const

/** Launch fees in pips (1,000,000 = 100%). */
const pips = z.number().int().min(0).max(1_000_000)

export const adminRequests = {
  /** `:id` of the registration, key request or key routes (and the slug of `PATCH projects/:id`). */
  idParams: z.object({ id: z.string().min(1) }),
  reviewsQuery: z.object({ kind: z.enum(REVIEW_KINDS), status: z.enum(REVIEW_STATUSES).optional() }),
  approveRegistration: z.strictObject({
    slug: slugSchema,
    creator: addressSchema,
    launchpad: z.enum(LAUNCHPADS),
    chain: z.enum(CHAIN_KEYS),
    method: z.enum(LAUNCH_METHODS).optional(),
    /** The token address expected at launch (Clanker salt, Zora coinAddress, Doppler CREATE2): then only it binds. */
    expectedToken: addressSchema.optional(),
    /** The token symbol (and name) the project announced: with the deployer, a launch of it binds (judge-launch.ts). */
    symbol: z.string().trim().min(1).max(64).optional(),
    name: z.string().trim().min(1).max(200).optional(),
    /** Label of the owner's key; defaults to the slug. */
    label: label.optional(),
  }),
  /** A pooled OTC offer set by the operator for the project's owner: the public API's PATCH /projects/{slug}/otc body. */
  otcOffer: OtcOfferBody,
  /** Dev-buy launch parameters set by the operator for the project's owner: the public API's PATCH /projects/{slug}/dev-buy body. */
  devBuyParams: DevBuyParamsBody,
  /** What binds a waiting project to its launch: the registered deployer and the expected token (null clears it). */
  projectBinding: z
    .strictObject({
      creator: addressSchema.optional(),
      expectedToken: addressSchema.nullable().optional(),
      /** The token symbol (null clears it, and the name) and name recorded as the second fact with the deployer. */
      symbol: z.string().trim().min(1).max(64).nullable().optional(),
      name: z.string().trim().min(1).max(200).nullable().optional(),
    })
    .refine(
      (body) => body.creator !== undefined || body.expectedToken !== undefined || body.symbol !== undefined || body.name !== undefined,
      'give creator, expectedToken, symbol or name',
    ),
  /** POST projects/:slug/changes/confirm: the owner's pending change (kind: needed only when there are two). */
  confirmChange: z.strictObject({ kind: z.enum(OWNER_CHANGE_KINDS).optional() }),
  /** POST projects/:slug/changes/reject: with the reason, shown on the public project (its change history). */
  rejectChange: z.strictObject({ kind: z.enum(OWNER_CHANGE_KINDS).optional(), reason: publicText({ max: 500, multiline: true }) }),
  /** GET /admin/v1/orders: the orders of one project or of one key (id or label). */
  ordersQuery: z
    .object({ project: slugSchema.optional(), key: z.string().min(1).max(100).optional() })
    .refine((query) => (query.project === undefined) !== (query.key === undefined), 'give project or key (one of them)'),
  /** PUT /admin/v1/keys/:id/social: the buyer's social profile (it orders GET /projects/{slug}/buyers), or unlink. */
  linkSocial: z.union([
    z.strictObject({ unlink: z.literal(true) }),
    z.strictObject({
      username: publicText({ max: 100 }),
      url: httpUrlSchema,
      followers: z.number().int().min(0).max(10_000_000_000),
      socialId: z.number().int().min(0).optional(),
    }),
  ]),
  /** GET /admin/v1/events: the stream's scope, the project (launches), and where to resume when no header says it. */
  eventsQuery: z.object({
    scope: z.enum(EVENT_SCOPES).default('launches'),
    slug: slugSchema.optional(),
    lastEventId: z.string().max(64).optional(),
  }),
  /** GET /admin/v1/projects/:id/simulation: the public API's query (startFdvUsdc). */
  simulationQuery: SimulationQuery,
  launchCandidatesQuery: z.object({ slug: slugSchema.optional(), chain: z.enum(CHAIN_KEYS).optional() }),
  /** The candidate's token address (the project is the route's `:id`). */
  confirmLaunch: z.strictObject({ token: addressSchema }),
  /** `label` defaults to the request's project name (made unique). */
  approveKeyRequest: z.strictObject({ label: label.optional() }),
  reject: z.strictObject({ note: publicText({ max: 500, multiline: true }).optional() }),
  /** A partial profile (spec section 2.3); given fields replace the stored ones, the slug never changes. */
  profileUpdate: z
    .strictObject({
      identity: z
        .strictObject({
          displayName: publicText({ max: 100 }).optional(),
          socialId: z.number().int().min(0).optional(),
          microblogHandle: publicText({ max: 100 }).nullable().optional(),
          socialUsername: publicText({ min: 0, max: 100 }).optional(),
        })
        .optional(),
      content: z
        .strictObject({
          bannerImageUrl: httpUrl.optional(),
          pfpUrl: httpUrl.optional(),
          bio: z
            .array(publicText({ max: 2000, multiline: true }))
            .max(20)
            .optional(),
          websiteUrl: httpUrl.optional(),
          teamMembers: z
            .array(
              z.strictObject({
                name: publicText({ max: 100 }),
                pfpUrl: httpUrl,
                followerCount: z.number().int().min(0),
                socialUrl: httpUrl,
                roles: z.array(z.strictObject({ projectName: publicText({ max: 100 }), title: publicText({ max: 100 }) })).max(10),
              }),
            )
            .max(50)
            .optional(),
        })
        .optional(),
      status: z
        .strictObject({ isProfileRegistered: z.boolean().optional(), isLaunchVerified: z.boolean().optional(), hasSniperProtection: z.boolean().optional() })
        .optional(),
    })
    .refine((body) => Object.keys(body).length > 0, 'give at least one profile field'),
  deskUpdate: z.strictObject({ open: z.boolean(), retryAfterSeconds: z.number().int().min(1).max(86_400).optional() }),
  block: z.strictObject({ type: z.enum(BLOCK_TYPES), value: z.string().trim().min(1).max(200), note: z.string().max(500).optional() }),
  unblock: z.strictObject({ type: z.enum(BLOCK_TYPES), value: z.string().trim().min(1).max(200) }),
  /** `usdc` in stablecoin units, `eth` in ETH, both decimal; the faucet checks each token's precision. */
  devnetFund: z
    .strictObject({ address: addressSchema, chain: z.enum(CHAIN_KEYS).default('base'), usdc: decimalSchema().optional(), eth: decimalSchema().optional() })
    .refine((body) => body.usdc !== undefined || body.eth !== undefined, 'give usdc, eth or both'),
  /** `prebuy contracts deploy`: this service's own contracts on one chain. */
  deployContracts: z.strictObject({ chain: z.enum(CHAIN_KEYS) }),
  devnetMine: z.strictObject({ blocks: z.number().int().min(1).max(10_000).default(1) }),
  devnetLaunch: z.strictObject({
    launchpad: z.enum(LAUNCHPADS),
    creator: addressSchema,
    /** Who sends the launch (default: the creator); another sender makes a forged-looking launch. */
    sender: addressSchema.optional(),
    chain: z.enum(CHAIN_KEYS).default('base'),
    name: z.string().min(1).max(64).optional(),
    symbol: z.string().min(1).max(16).optional(),
    startFee: pips.optional(),
    endFee: pips.optional(),
    decaySeconds: z.number().int().min(1).max(86_400).optional(),
    /** Clanker: a third party bids this much ETH (paid in WETH) and wins the first auction round (launch + 2). */
    auctionBidEth: decimalSchema(18).optional(),
    /** What the token pairs with where the launchpad allows a choice (Zora: eth, the default, or zora). */
    paired: z.enum(['weth', 'eth', 'zora', 'coin']).optional(),
    /** With paired 'coin' (Zora): the creator coin the content coin pairs with. */
    pairedCoin: addressSchema.optional(),
    /** Zora: a creator coin (paired with ZORA, CreatorCoinCreated) instead of a content coin. */
    creatorCoin: z.boolean().optional(),
    /** Clanker: a dev buy worth this much stablecoin (paid in ETH at the devnet price) in the deployment, for the creator. */
    devBuyUsdc: decimalSchema(6).optional(),
    /** Clanker: the dynamic-fee hook (clanker-sdk's Dynamic3, 1% to 3%) instead of the static 1%. */
    dynamicFee: z.boolean().optional(),
    /** Doppler: a rehype pool (0.7% LP fee + the decaying hook fee taken from the output), as Bankr's current ones. */
    rehype: z.boolean().optional(),
    /** Doppler rehype: which deployment's plugin, `sdk` (default, dividing by 800,000 as deployed) or `fixed` (1e6). */
    rehypeDeployment: z.enum(['sdk', 'fixed']).optional(),
    /** Doppler: a DopplerHookInitializer pool without a plugin at this static LP fee (pips): no fee schedule. */
    staticFee: z.number().int().min(0).max(999_999).optional(),
    /** Doppler: a pool with the SwapRestrictorDopplerHook plugin: only these senders may buy, each up to maxAmount tokens. */
    swapRestrictor: z.strictObject({ approved: z.array(addressSchema).min(1).max(20), maxAmount: decimalSchema(18) }).optional(),
    /** Doppler: a DopplerERC20V1 asset: no holder above maxBalance tokens until `seconds` after the chain's latest block. */
    balanceLimit: z.strictObject({ maxBalance: decimalSchema(18), seconds: z.number().int().min(1).max(2_592_000) }).optional(),
    /** Zora: a trend coin (permissionless, named by its ticker `symbol`, paired with ZORA, TrendCoinCreated). */
    trendCoin: z.boolean().optional(),
    /** Clanker: the MEV module, SniperAuctionV2 (default) or Clanker v4.0's SniperAuctionV0 or 2-block MevBlockDelay. */
    mevModule: z.enum(DEVNET_CLANKER_MEV_MODULES).optional(),
    /** Clanker, with devBuyUsdc: who receives the dev buy's tokens (default: the creator). */
    devBuyRecipient: addressSchema.optional(),
    /** Clanker: the LP locker's positions (ticks as if the token were currency0, spacing 200, bps adding up to 10,000). */
    positions: z
      .array(z.strictObject({ tickLower: z.number().int(), tickUpper: z.number().int(), bps: z.number().int().min(1).max(10_000) }))
      .min(1)
      .max(7)
      .optional(),
    /** Which side of its paired asset the token sorts on (a salt is searched for). */
    tokenSide: z.enum(['currency0', 'currency1']).optional(),
    /** The token's CREATE2 salt (bytes32 hex), for a launch at a predicted address. */
    salt: z
      .string()
      .regex(/^0x[0-9a-fA-F]{64}$/, { error: 'expected a 0x-prefixed 32-byte hex salt' })
      .optional(),
  }),
  /** `usdc`: the stablecoin the devnet trader spends, decimal. */
  devnetSwap: z.strictObject({ token: addressSchema, usdc: decimalSchema(6), chain: z.enum(CHAIN_KEYS).default('base') }),
}

export type AdminRequestName = keyof typeof adminRequests
/** A request as a client sends it: fields with a default may be left out. */
export type AdminRequest<Name extends AdminRequestName> = z.input<(typeof adminRequests)[Name]>
/** A request as a route hands it to its operation once parseRequest accepted it: defaults applied, addresses typed. */
export type ValidAdminRequest<Name extends AdminRequestName> = z.output<(typeof adminRequests)[Name]>

export type ApproveRegistrationRequest = AdminRequest<'approveRegistration'>
export type ProjectBindingRequest = AdminRequest<'projectBinding'>
export type ConfirmChangeRequest = AdminRequest<'confirmChange'>
export type RejectChangeRequest = AdminRequest<'rejectChange'>
export type OtcOfferRequest = AdminRequest<'otcOffer'>
export type DevBuyParamsRequest = AdminRequest<'devBuyParams'>
export type LaunchCandidatesQuery = AdminRequest<'launchCandidatesQuery'>
export type SimulationQueryRequest = AdminRequest<'simulationQuery'>
export type ApproveKeyRequestRequest = AdminRequest<'approveKeyRequest'>
export type ProfileUpdate = AdminRequest<'profileUpdate'>
export type DeskUpdate = AdminRequest<'deskUpdate'>
export type BlockRequest = AdminRequest<'block'>
export type LinkSocialRequest = AdminRequest<'linkSocial'>
export type FundRequest = AdminRequest<'devnetFund'>
export type DevnetLaunchRequest = AdminRequest<'devnetLaunch'>
export type DevnetSwapRequest = AdminRequest<'devnetSwap'>

// Responses.

/** Work waiting in the daemon (`GET status`). */
export interface QueueSizes {
  /** Buys submitted and not yet settled. */
  inFlightBuys: number
  pendingReviews: number
  activeOrders: number
  candidatesAwaitingConfirmation: number
  /** Launches bound but not completed (a read failed) plus launch logs not decoded yet; both retried with backoff. */
  quarantinedLaunches: number
}

/** One of this service's own contracts on a chain (`daemon status`). */
export interface OurContractStatus {
  name: string
  address: string
  deployed: boolean | null
}

/** `POST contracts/deploy`: what `prebuy contracts deploy` deployed and what was already there, in deployment order. */
export interface DeployContractsResult {
  chain: ChainKey
  /** The account that sent the deployments (the bundler EOA). */
  deployer: string
  contracts: Array<{ name: string; address: string; status: 'deployed' | 'already_deployed' }>
}

/** `GET status`. */
/** One sender account's ETH (null: no answer) and whether it is under wallet.bundlerLowEth. */
export interface SenderStatus {
  address: string
  balanceEth: string | null
  level: 'ok' | 'low' | 'unknown'
}

export interface DaemonStatus {
  /** prebuy's version (package.json). */
  version: string
  pid: number
  url: string
  adminUrl: string
  dataDir: string
  startedAt: string
  uptimeSeconds: number
  /** The chains the daemon runs on (their ids); `disabled`: chains left out of the rpc-mode config. */
  chains: { mode: 'devnet' | 'rpc'; chainIds: Partial<Record<ChainKey, number>>; disabled: ChainKey[] }
  /**
   * The bundler EOA of each chain (it pays every buy's gas): its ETH now (null: no answer) and whether it is low; and
   * every sender account of the chain (wallet.senderAccounts, the bundler first), each with its own ETH and level.
   */
  bundlers: Partial<Record<ChainKey, SenderStatus & { senders: SenderStatus[] }>>
  /** This service's own contracts per chain: deployed, missing (`prebuy contracts deploy`), or null (not read). */
  contracts: Partial<Record<ChainKey, OurContractStatus[]>>
  /** Each chain's head, the indexer's newest block and the lag, and whether the daemon is ready (GET /readyz). */
  readiness: ReadinessReport
  queues: QueueSizes
}

/** `GET reviews`, `GET projects`, `GET keys`, `GET blocklist`. */
export interface ListResponse<Item> {
  items: Item[]
}

/** A newly issued key: the plaintext appears here once and is never stored or shown again. */
export interface IssuedKey {
  apiKey: string
  keyId: string
  label: string
  serviceWalletAddress: string
}

/** `POST registrations/:id/approve`. */
export interface ApproveRegistrationResult {
  review: ReviewItem
  project: ProjectRecord
  key: IssuedKey
  /** Why the registered deployer may not identify the project's launch alone (a contract, a shared deployer, a serial launcher). */
  deployerWarnings?: string[]
}

/** `POST key-requests/:id/approve`. */
export interface ApproveKeyRequestResult {
  review: ReviewItem
  key: IssuedKey
}

/** `POST registrations/:id/reject`, `POST key-requests/:id/reject`. */
export interface RejectResult {
  review: ReviewItem
}

/** `PATCH projects/:slug`. */
export interface UpdateProfileResult {
  project: ProjectRecord
}

export interface KeySummary {
  keyId: string
  label: string
  serviceWalletAddress: string
  createdAt: number
  revokedAt: number | null
  ownedProjectSlugs: string[]
}

/** `POST keys/:idOrLabel/revoke`. */
export interface RevokeKeyResult {
  key: KeySummary
  /** Active orders of the key cancelled with the revocation (active -> deleted); executing ones settle as usual. */
  cancelledOrders: number
}

/** `POST blocklist`. */
export interface AddBlockResult {
  entry: BlockEntry
}

/** `DELETE blocklist`. */
export interface RemoveBlockResult {
  removed: boolean
}

export interface FundResult {
  chain: ChainKey
  address: string
  /** Atomic amounts credited. */
  usdc: string
  eth: string
}

/** `POST devnet/fund`. */
export interface DevnetFundResult {
  funded: FundResult[]
}

/** `POST devnet/mine`. */
export interface MineResult {
  chain: ChainKey | 'all'
  blocks: number
  blockNumbers: Record<string, string>
}

/** `GET devnet/deployments`. */
export type Deployments = Record<string, unknown>

/**
 * A launch that touched a project without binding it: rejected (forged-looking, or not the expected token), awaiting
 * the operator's confirmation (a shared deployer's), confirmed (bound on the indexer's next block), quarantined (bound
 * but its reads failed: retried with backoff) or unsupported (bound, but not a launch prebuy can buy).
 */
export interface LaunchCandidateView {
  slug: string
  chain: ChainKey
  launchpad: Launchpad
  token: string
  deployer: string
  claimedCreators: string[]
  txHash: string
  blockNumber: string
  status: 'rejected' | 'awaiting_confirmation' | 'confirmed' | 'quarantined' | 'unsupported'
  reason: string
  /** The binding rule that held it back (judge-launch.ts LaunchRule), when one did. */
  rule?: string
  /** What to know of its deployer: a shared deployer (which one), one seen launching several tokens. */
  deployerNotes?: string[]
  name?: string | null
  symbol?: string | null
  attempts: number
  retryAtBlock?: string
  seenAt: number
  updatedAt: number
}

/** A launch log whose decoding failed (a read failed): decoded again with backoff. */
export interface QuarantinedLogView {
  chain: ChainKey
  txHash: string
  logIndex: number
  blockNumber: string
  error: string
  attempts: number
  retryAtBlock: string
  seenAt: number
}

/** `GET launches/candidates`, newest first. */
export interface LaunchCandidatesResult {
  candidates: LaunchCandidateView[]
  quarantinedLogs: QuarantinedLogView[]
}

/** `POST keys/:idOrLabel/rotate`: the key's new secret, shown once; the old one stopped working in the same write. */
export interface RotateKeyResult {
  key: IssuedKey
  rotatedAt: number
}

/** `PUT keys/:idOrLabel/social`. */
export interface LinkSocialResult {
  key: KeySummary
  social: SocialProfile | null
}

export type { LaunchDetail, LaunchSummary, OrderTallies, OperatorOrderView, OperatorProjectDetail } from '../services/operator-views-service.ts'

/** `GET launches/:slug/journal`: what the executor recorded about a launch (`prebuy executions replay`). */
export type { ExecutionJournal } from '../services/execution-journal-service.ts'

/** `POST launches/:slug/confirm`. */
export interface ConfirmLaunchResult {
  candidate: LaunchCandidateView
}

/** `PATCH projects/:slug/binding`. */
export interface UpdateBindingResult {
  project: ProjectRecord
  /** With a new deployer: why it may not identify the project's launch alone (as at approval). */
  deployerWarnings?: string[]
}

/** One owner's change waiting for the operator (or for its notice period): `GET owner-changes`, the review queue. */
export interface PendingChangeItemView {
  slug: string
  displayName: string
  change: PendingChangeView
  /** The terms in force it would replace (null: none, e.g. a first offer). */
  inForce: TermsView | null
  /** Live orders placed before the proposal: a confirmation then starts the notice period. */
  ordersBefore: number
}

/** `POST projects/:slug/changes/confirm`: in force now, or awaiting its notice period (pendingChange.effectiveAt). */
export interface ConfirmChangeResult {
  slug: string
  outcome: 'in_force' | 'awaiting_notice'
  pendingChange: PendingChangeView | null
  changes: ProjectChangesView
}

/** `POST projects/:slug/changes/reject`. */
export interface RejectChangeResult {
  slug: string
  changes: ProjectChangesView
}

/** `GET|PATCH projects/:slug/otc`, `POST projects/:slug/otc/deposit`: the project's offer as the public API shows it. */
export interface OtcResult {
  slug: string
  otc: OtcOfferView | null
}

/** `GET|PATCH projects/:slug/dev-buy`, `POST projects/:slug/dev-buy/launch`: the project's dev-buy launch as the public API shows it. */
export interface DevBuyResult {
  slug: string
  devBuy: DevBuyLaunchView | null
}

/** `POST devnet/launch`. */
export interface DevnetLaunchResult {
  chain: ChainKey
  launchpad: Launchpad
  creator: string
  /** Who sent the launch transaction. */
  sender: string
  token: string
  /** What the token pairs with (kind weth, eth or zora) and that asset's address (native ETH: the zero address). */
  paired: { kind: string; address: string }
  /** With devBuyUsdc: the ETH the dev buy paid (decimal). */
  devBuyEth?: string
  poolId: string
  txHash: string
  blockNumber: string
  /** With auctionBidEth: the bid that won the first auction round. */
  auctionBid?: { bidder: string; txHash: string; blockNumber: string; paymentEth: string; round: number }
  /** A genuine launch prebuy does not buy (the swap restrictor): why, as the indexer records it. */
  unsupported?: string
}

/** `POST devnet/swap`. */
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
