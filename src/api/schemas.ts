import { z } from 'zod'
import { CHAIN_KEYS } from '../chain/chain-keys.ts'
import { lockTermsFields } from '../launch-methods/vesting/domain/lock-terms.ts'
import { parseDecimal } from '../domain/decimal.ts'
import { FDV_DECIMALS, MAX_BATCH_ITEMS, MAX_EXPIRES_IN_MS, MAX_FDV_USDC, MIN_EXPIRES_IN_MS } from '../domain/order-bounds.ts'
import { ORDER_ITEM_CODES, ORDER_ITEM_STATUSES } from '../domain/order-codes.ts'
import { LAUNCH_METHODS, LAUNCHPADS, ORDER_STATUSES, type ProjectProfile } from '../domain/records.ts'
import { API_ERROR_CODES } from '../common/error-codes.ts'
import { publicText } from '../common/public-text.ts'
import { addressSchema, projectUrlSchema } from '../common/schemas.ts'
import { LABEL_MAX_LENGTH } from '../domain/api-key.ts'
import { devBuyTextFields } from '../domain/dev-buy-text.ts'
import type { DevBuyLaunchView } from '../launch-methods/dev-buy/domain/dev-buy-view.ts'
import type { OtcOfferView } from '../launch-methods/pooled-otc/domain/otc-view.ts'
import type { BuyerPage } from '../services/buyer-service.ts'
import type { LaunchSimulation } from '../services/launch-simulation-service.ts'
import type { OrderPage } from '../services/order-service.ts'
import type { ProjectDetail, ProjectPage } from '../services/project-service.ts'
import type { Receipt } from '../services/review-service.ts'

/**
 * The one place request and response shapes are defined. Routes validate with these (safeParse) and the OpenAPI
 * document is generated from them, so the documentation cannot drift from what the server accepts.
 */

const bullet = (entries: Record<string, string>) =>
  Object.entries(entries)
    .map(([name, text]) => `- \`${name}\`: ${text}`)
    .join('\n')

// ---------- shared ----------

/**
 * Formats the document states for fields the server writes or checks itself (issue 24: the document as strict as the
 * server). They are metadata only: they change the OpenAPI document, never what a route accepts (the routes keep their
 * own checks and item codes: a malformed amount is the item's invalid_amount, not a 400 for the whole batch).
 */
export const ADDRESS_PATTERN = '^0x[0-9a-fA-F]{40}$'
/** A positive decimal with at most 6 decimals (USDC amounts and USD FDVs; src/domain/decimal.ts DECIMAL_PATTERN). */
export const USD_DECIMAL_PATTERN = '^[0-9]+(\\.[0-9]{1,6})?$'
/** A decimal in token units (at most the token's decimals, checked by the service). */
export const DECIMAL_PATTERN_TEXT = '^[0-9]+(\\.[0-9]+)?$'
const EXAMPLE_ADDRESS = '0x4200000000000000000000000000000000000006'
const EXAMPLE_TIME = '2026-11-26T06:00:00.000Z'
/** An EVM address the server writes (checksummed or lower case). */
const address = z.string().meta({ pattern: ADDRESS_PATTERN, examples: [EXAMPLE_ADDRESS] })
/** An ISO 8601 time the server writes (Date.toISOString: UTC, milliseconds). */
const isoTime = z.string().meta({ format: 'date-time', examples: [EXAMPLE_TIME] })
/** A JSON number the server takes only as a whole number in [minimum, maximum]: an integer in the document. */
export const wholeNumber = (minimum: number, maximum: number) => ({ type: 'integer' as const, minimum, maximum })

export const ErrorBody = z
  .object({
    error: z.string().describe('Short title of the HTTP status, e.g. "Bad request".'),
    message: z.string().describe('Human-readable explanation.'),
    code: z.enum(API_ERROR_CODES).optional().describe('Stable machine code (the list with meanings is in the API description). Not sent on 500.'),
    details: z
      .union([
        z.array(z.object({ path: z.string(), message: z.string() })).describe('invalid_body, invalid_query: the problems, one per field.'),
        z
          .record(z.string(), z.string())
          .describe('The fields the code publishes (each listed with its code in the API description), e.g. {"minimum": "1000000"}.'),
      ])
      .optional()
      .describe('Sent with the codes that say so: the problems of an invalid body or query, or the fields a code publishes.'),
  })
  .describe('Every error response has this body.')
/** The error body's one type (daemon/http/error-mapping.ts builds it): the API contract is the lowest layer that needs it. */
export type ErrorBody = z.infer<typeof ErrorBody>

export const ReceiptSchema = z
  .object({
    status: z.literal('received'),
    message: z.string().describe('Human-readable acknowledgement.'),
  })
  .describe('Answer of the three submission endpoints: the submission is stored as a pending review item.')

/** Longer than any cursor the service issues (an index key: key id, status, padded spend, a 64-character slug). */
export const CURSOR_MAX_LENGTH = 512
const Cursor = z
  .string()
  .min(1)
  .max(CURSOR_MAX_LENGTH)
  .optional()
  .describe('Opaque cursor. Omit for the first page; pass meta.nextCursor verbatim for the next one.')

const Limit = z
  .string()
  .regex(/^-?\d+$/, 'limit must be an integer')
  .optional()
  .describe('Page size, integer; default 20; values outside 1..100 are clamped to that range.')

export const PageQuery = z.object({ cursor: Cursor, limit: Limit })

// ---------- keys ----------

export const CreateApiKeyBody = z
  .object({
    label: publicText({ max: LABEL_MAX_LENGTH }).describe(
      `Human-readable name of the key, 1 to ${LABEL_MAX_LENGTH} characters, unique across all keys (trimmed; one line, no control, bidi or zero-width characters).`,
    ),
  })
  .describe('Body of POST /api-keys. Only label is accepted; other fields are ignored.')

export const CreatedApiKey = z
  .object({
    apiKey: z.string().describe('The key (prebuy_ + 43 base62 random characters + 6 checksum characters). Returned exactly once; only its sha256 is stored.'),
    serviceWalletAddress: address.describe('Counterfactual smart-wallet address of the key, the same on both chains.'),
    label: z.string(),
  })
  .describe('201 answer of POST /api-keys.')

export const KeyRequestBody = z.object({
  useCases: z
    .array(z.enum(['buying_pre_launch_tokens', 'launching_a_token']))
    .min(1)
    .max(2),
  projectName: publicText({ max: 100 }),
  projectUrls: z.array(projectUrlSchema).min(1).max(10).describe('1 to 10 http or https URLs or social handles (@name): site, repository, socials.'),
  projectInfo: publicText({ max: 2000, multiline: true }),
  contact: publicText({ max: 200 }),
  businessSignOff: publicText({ max: 500, multiline: true }).optional(),
})

export const RegistrationBody = z.object({
  projectName: publicText({ max: 100 }),
  projectUrls: z
    .array(projectUrlSchema)
    .min(1)
    .max(10)
    .describe(
      '1 to 10 entries, each an http or https URL (at most 2000 characters) or a social handle (@ and 1 to 64 letters, digits, _ . -): site, repository, socials. The first URL becomes the public website URL.',
    ),
  projectInfo: publicText({ max: 2000, multiline: true }),
  contact: publicText({ max: 200 }).describe('Where the operators can reach the submitter.'),
  email: z.email().max(200),
  businessSignOff: publicText({ max: 500, multiline: true }).optional(),
})

export const FeedbackBody = z.object({
  message: publicText({ max: 2000, multiline: true }),
  name: publicText({ max: 200 }).describe('Name of the project or agent.'),
  contact: publicText({ max: 200 }),
})

// ---------- identity ----------

export const Me = z.object({
  serviceWalletAddress: address,
  label: z.string(),
  ownedProjectSlugs: z.array(z.string()),
})

// ---------- projects ----------

const TeamMember = z.object({
  name: z.string(),
  pfpUrl: z.string(),
  followerCount: z.int(),
  socialUrl: z.string(),
  roles: z.array(z.object({ projectName: z.string(), title: z.string() })),
})

export const ProjectProfileSchema = z
  .object({
    identity: z.object({
      slug: z.string(),
      displayName: z.string(),
      socialId: z.int(),
      microblogHandle: z.string().nullable(),
      socialUsername: z.string(),
    }),
    content: z.object({
      bannerImageUrl: z.string().describe('URL; an empty string until the operators set one.'),
      pfpUrl: z.string().describe('URL; an empty string until the operators set one.'),
      bio: z.array(z.string()).describe('Paragraphs.'),
      websiteUrl: z.string(),
      teamMembers: z.array(TeamMember),
    }),
    status: z.object({
      isProfileRegistered: z.boolean(),
      isLaunchVerified: z.boolean(),
      hasSniperProtection: z.boolean(),
    }),
  })
  .describe('A project profile (spec section 2.3).')

export const ProjectPageSchema = z.object({
  data: z.array(ProjectProfileSchema),
  meta: z.object({ total: z.int(), limit: z.int(), nextCursor: z.string().nullable() }),
})

const DepthLevel = z.object({
  maxFdvUsdc: z.string().nullable().describe('Price limit of this level; null = orders without a limit.'),
  orderCount: z.int(),
  spendUsdc: z.string().describe('Spend cap of the orders at exactly this limit.'),
  eligibleSpendUsdc: z
    .string()
    .describe('Spend of all orders that still buy at an effective market cap equal to this limit (limit >= level, no-limit orders included).'),
})

// ---------- changes of what the orders buy (docs/owner-changes.md) ----------

export const ChangeTerms = z
  .discriminatedUnion('kind', [
    z.object({
      kind: z.literal('launch_binding'),
      creatorAddress: address.describe('The registered deployer.'),
      expectedTokenAddress: address.nullable().describe('The token address expected at launch (with the deployer, it binds); null: none.'),
      expectedSymbol: z.string().nullable().optional().describe('The token symbol recorded (with the deployer, a launch of it binds); null: none.'),
      expectedName: z.string().nullable().optional().describe('The token name recorded with the symbol (a launch must have it too); null: none.'),
    }),
    z.object({
      kind: z.literal('otc_offer'),
      tokenAddress: address,
      tokenSymbol: z.string(),
      tokenAmount: z.string().describe('Tokens offered, token units.'),
      totalSupply: z.string().describe('The token’s total supply, token units.'),
      fdvUsdc: z.string().describe('The OTC price as an FDV, decimal USD.'),
      settleAt: isoTime.describe('ISO 8601.'),
      lockSeconds: z.int(),
      vestingSeconds: z.int(),
    }),
  ])
  .describe('What the orders buy: the launch binding, or the pooled OTC offer’s terms.')

export const PendingChange = z
  .object({
    kind: z.enum(['launch_binding', 'otc_offer']),
    status: z
      .enum(['awaiting_confirmation', 'confirmed'])
      .describe('awaiting_confirmation: the operator has not confirmed it (nothing changes; it may be rejected); confirmed: it takes effect at effectiveAt.'),
    proposed: ChangeTerms,
    proposedAt: isoTime.describe('ISO 8601: when the owner proposed it.'),
    confirmedAt: isoTime.nullable().describe('ISO 8601: when the operator confirmed it; null: not yet.'),
    effectiveAt: isoTime
      .nullable()
      .describe(
        'ISO 8601: when it takes effect; the confirmation itself if no live order predates the proposal, else the confirmation + the notice period. null until confirmed.',
      ),
  })
  .describe(
    "A change by the project's owner of what the orders buy. It takes effect only once the operator confirms it, and, when orders placed before the proposal are live, only after a notice period from the confirmation: until then the terms in force stay (their owners may delete their orders).",
  )

export const ChangeEntry = z
  .object({
    kind: z.enum(['launch_binding', 'otc_offer']),
    by: z
      .enum(['owner', 'operator'])
      .describe('owner: proposed by the owning key and confirmed (or rejected) by the operator; operator: the operator’s own edit, in force at once.'),
    outcome: z.enum(['effective', 'rejected']),
    from: ChangeTerms.nullable().describe('The terms before (null: none, e.g. a first offer).'),
    to: ChangeTerms.describe('The terms it set (or, rejected, proposed).'),
    proposedAt: isoTime.nullable().describe('ISO 8601; null for an operator’s edit.'),
    decidedAt: isoTime.nullable().describe('ISO 8601: the operator’s confirmation or rejection; null for an operator’s edit.'),
    effectiveAt: isoTime.nullable().describe('ISO 8601: when it took effect; null if rejected.'),
    reason: z.string().nullable().describe('Why it was rejected (by the operator, or because the terms it would replace were fixed meanwhile).'),
  })
  .describe('A change of what the orders buy that took effect, or an owner’s proposal that was rejected.')

export const ProjectChanges = z
  .object({
    pending: z.array(PendingChange).describe('At most one per kind.'),
    history: z.array(ChangeEntry).describe('Newest first (the last 100).'),
  })
  .describe('Changes of what the orders buy: pending ones and the history, with their times.')

export const OtcOfferSchema = z
  .object({
    offerId: z
      .string()
      .describe(
        'The offer’s id (bytes32 hex): the settlement contract stores it under offerKey(the owner’s wallet, offerId), so only the owner’s wallet can deposit it. A new id after a cancelled or superseded offer.',
      ),
    fdvUsdc: z.string().describe('The OTC price as a fully diluted value, decimal USD: one token costs fdv / total supply.'),
    tokenAddress: address,
    tokenSymbol: z.string(),
    tokenAmount: z.string().describe('Tokens offered, decimal in token units.'),
    settleAt: isoTime.describe('ISO 8601: the settlement runs at or after this time (on the chain’s clock).'),
    lockSeconds: z.int().describe('Buyers’ tokens are locked this long after the settlement block (a vesting position in each wallet’s name); 0: no cliff.'),
    vestingSeconds: z.int().describe('Then they vest linearly over this many seconds (all at its end); both 0: no lock, tokens to the wallets.'),
    deposited: z.boolean().describe('Whether the owner’s wallet deposited the offered tokens into the settlement contract.'),
    depositTxHash: z.string().nullable(),
    settlement: z
      .object({
        status: z
          .enum(['settling', 'settled', 'retrying', 'cancelled'])
          .describe(
            'settling: in progress; settled: done (orders filled); retrying: the last attempt moved nothing and is retried; cancelled: withdrawn on chain.',
          ),
        txHash: z.string().nullable(),
        soldTokens: z.string().nullable().describe('Tokens sold (before the 3% fee), token units.'),
        unsoldTokens: z.string().nullable().describe('Tokens returned to the project, token units.'),
        proceedsUsdc: z.string().nullable().describe('Stablecoin paid to the project’s wallet, decimal USDC.'),
        filledOrders: z.int().nullable(),
        reason: z.string().nullable().describe('Why the last attempt failed (retrying).'),
        at: isoTime.describe('ISO 8601 time of the state.'),
      })
      .nullable(),
    supersededOffers: z
      .array(z.object({ offerId: z.string(), reason: z.string(), at: isoTime.describe('ISO 8601.') }))
      .describe(
        'Ids the offer left for a fresh one, oldest first, and why: an on-chain offer under the id whose terms differed from these (never counted as the deposit, never settled).',
      ),
  })
  .describe('A pooled OTC offer (docs/launch-methods.md).')

export const OtcOfferEdit = OtcOfferSchema.extend({
  pendingChange: PendingChange.optional().describe(
    'Present (status 202) when the owner’s offer is a proposal waiting for the operator: the offer shown is the proposed one, not in force.',
  ),
}).describe('PATCH /projects/{slug}/otc answer: the offer now in force (200), or the proposed one with its pendingChange (202).')

/** A positive decimal USD FDV within the order bounds, as micro-USD; undefined when it is not one. */
export const fdvAtomsOf = (value: string): bigint | undefined => {
  const atoms = parseDecimal(value, FDV_DECIMALS)
  return atoms !== undefined && atoms > 0n && atoms <= MAX_FDV_USDC * 10n ** BigInt(FDV_DECIMALS) ? atoms : undefined
}

export const SimulationQuery = z.object({
  startFdvUsdc: z
    .string()
    .meta({ pattern: USD_DECIMAL_PATTERN })
    .refine((value) => fdvAtomsOf(value) !== undefined, `must be a positive decimal USD amount, at most 6 decimals, at most ${MAX_FDV_USDC}`)
    .optional()
    .describe(
      "The launch's starting spot FDV (decimal USD) to place the open-market demand from. Without it: the launchpad's default start where it has one (Clanker: tick -230,400 on WETH, at ETH's price now), else none (openMarket.startFdvUsdc null). Invalid -> 400 invalid_query.",
    ),
})

const FeeCurvePlacement = z
  .object({
    launchpad: z.enum(LAUNCHPADS),
    reference: z.string().describe('The reference launch the demand is placed on: the launchpad’s default launch fees.'),
    blockSeconds: z.int().describe('Seconds per block of the reference launch (Base: 2).'),
    firstSwapAfterSeconds: z
      .int()
      .describe('Seconds after the launch block of the first block a plain buy is allowed in (Clanker: after its two auction blocks).'),
    firstSwapFeePercent: z.string().describe('Every pool fee a buy in that block pays, percent (4 decimals).'),
    settledAfterSeconds: z.int().describe('Seconds after the launch block of the first block from which the fee no longer changes.'),
    settledFeePercent: z.string().describe('The fee from then on (the LP fee and any protocol fee), percent.'),
    startFdvUsdc: z.string().nullable().describe('The launch’s starting spot FDV the slices are placed from; null: none known (pass startFdvUsdc).'),
    startFdvSource: z.enum(['request', 'launchpad_default']).nullable(),
    slices: z.array(
      z.object({
        maxFdvUsdc: z.string().nullable().describe('The slice’s price limit (effective market cap), as in demand; null: no limit.'),
        fundedSpendUsdc: z.string(),
        maxSpotFdvAtFirstSwapUsdc: z
          .string()
          .nullable()
          .describe('The highest pool (spot) FDV at which the slice buys in the first block buys are allowed; null: no limit.'),
        maxSpotFdvSettledUsdc: z.string().nullable().describe('The same once the launch fee has decayed; below it the slice buys whenever the price is there.'),
        eligibleAtStart: z
          .object({ block: z.int(), afterSeconds: z.int(), feePercent: z.string() })
          .nullable()
          .describe(
            'At the starting FDV: the first block (after the launch block) whose fee lets the slice buy; null: never at that price (it waits for the price to fall to maxSpotFdvSettledUsdc) or no start known.',
          ),
        demandAheadUsdc: z.string().describe('Funded spend of the slices ahead of it (no limit first, then higher limits).'),
        effectiveCapWhenReachedUsdc: z
          .string()
          .nullable()
          .describe(
            'On the launchpad’s default pool (Clanker’s, from its default start), once the demand ahead has bought at the settled fee: the effective cap the slice meets; it buys there if its limit is at or above it. Null: no default pool known (another launchpad, or a start given) or the pool cannot absorb the demand ahead.',
          ),
      }),
    ),
  })
  .nullable()
  .describe(
    'The open-market demand on the launch fee curve of the project’s launchpad, placed at the starting price (the price impact of buys is not in it); null once the project’s launch is known.',
  )

export const LaunchSimulationSchema = z
  .object({
    slug: z.string(),
    launchMethod: z.enum(LAUNCH_METHODS),
    generatedAt: isoTime.describe('ISO 8601.'),
    demand: z
      .array(
        z.object({
          maxFdvUsdc: z.string().nullable().describe('The slice’s price limit (effective market cap), USD; null: no limit.'),
          orderCount: z.int(),
          fundedSpendUsdc: z.string().describe('Sum over these orders of min(spend cap, wallet balance now), decimal USDC.'),
          eligibleFundedSpendUsdc: z.string().describe('Funded spend that buys once the effective market cap is at or below this limit.'),
        }),
      )
      .describe('Open-market demand by price limit: no limit first, then highest first.'),
    openMarket: FeeCurvePlacement,
    otc: z
      .object({
        fdvUsdc: z.string(),
        offeredTokens: z.string(),
        demandUsdc: z.string().describe('What the eligible orders can spend now.'),
        oversubscribed: z.boolean(),
        fillRatio: z.number().describe('Tokens sold / tokens offered.'),
        soldTokens: z.string(),
        unsoldTokens: z.string(),
        fills: z.array(z.object({ keyId: z.string(), spendUsdc: z.string(), tokens: z.string(), creditedTokens: z.string() })),
        skipped: z.array(z.object({ keyId: z.string(), reason: z.enum(['limit_below_otc', 'no_balance']) })),
      })
      .nullable()
      .describe('A pooled OTC settlement run now on the project’s offer; null without an offer or for other methods.'),
    devBuy: z
      .object({
        tokenAddress: address
          .nullable()
          .describe(
            'The token the launch deploys: null until it is under way (each attempt draws a secret salt, so nobody can deploy the token first); while launching, the one it deploys.',
          ),
        spendUsdc: z.string().describe('The single buy’s size: what the included orders pay in, decimal USDC.'),
        ethIn: z.string().describe('The ETH that stablecoin buys now, which the dev buy spends.'),
        boughtTokens: z.string().describe('Tokens the buy gets, before the 3% fee.'),
        feeTokens: z.string(),
        averageFdvUsdc: z.string().describe('The FDV the buy pays on average (its price).'),
        marginalCapUsdc: z.string().nullable().describe('The effective market cap at the buy’s last token: the market cap it leaves, fees counted.'),
        allocations: z.array(z.object({ keyId: z.string(), spendUsdc: z.string(), tokens: z.string().describe('Credited, after the fee.') })),
        excluded: z.array(z.object({ keyId: z.string(), reason: z.enum(['limit_below_price', 'after_cutoff', 'nothing_to_spend', 'liquidity_exhausted']) })),
      })
      .nullable()
      .describe('The dev buy the launch would make now, on the pool it would deploy; null before its parameters are set, once launched, or for other methods.'),
  })
  .describe('GET /projects/{slug}/simulation: what the launch would do with the live order book and balances now.')

export const OtcOfferBody = z
  .strictObject({
    fdvUsdc: z.string().meta({ pattern: USD_DECIMAL_PATTERN }).describe('The OTC price as an FDV, decimal USD (at most 6 decimals).'),
    tokenAddress: addressSchema.describe('The token sold, an ERC-20 on the project’s chain.'),
    tokenAmount: z.string().meta({ pattern: DECIMAL_PATTERN_TEXT }).describe('Tokens offered, decimal in token units (at most the token’s decimals).'),
    settleAt: isoTime.describe('ISO 8601 time in the future: the earliest settlement.'),
    ...lockTermsFields,
  })
  .describe('PATCH /projects/{slug}/otc body. Lock terms are fixed with the rest at the deposit.')

const DevBuyPool = z.strictObject({
  startingTick: z
    .int()
    .describe('Clanker’s tickIfToken0IsClanker: the starting price (its market cap), as if the token were currency0; on the tick spacing (200).'),
  positions: z
    .array(z.strictObject({ tickLower: z.int(), tickUpper: z.int(), bps: z.int().describe('Share of the pool supply, basis points.') }))
    .min(1)
    .max(7)
    .describe('The LP locker’s positions (1 to 7): ranges on the tick spacing, each at or above the starting tick, shares adding up to 10,000.'),
  lpFeeBps: z.int().min(0).max(1_000).describe('The static LP fee on buys and sells, basis points (0 to 1,000: Clanker’s 10% cap).'),
})

export const DevBuyLaunchSchema = z
  .object({
    launchId: z.string().describe('The launch’s id on the dev-buy coordinator contract (bytes32 hex), fixed per project.'),
    name: z.string(),
    symbol: z.string(),
    image: z.string().describe('Image URL; empty for none.'),
    metadata: z.string().describe('Free text stored with the token by the launchpad.'),
    tokenAdmin: address.describe('The token’s admin on the launchpad (Clanker tokenAdmin).'),
    lockSeconds: z.int().describe('Buyers’ shares are locked this long after the launch block (a vesting position in each wallet’s name); 0: no cliff.'),
    vestingSeconds: z.int().describe('Then they vest linearly over this many seconds (all at its end); both 0: no lock, shares to the wallets.'),
    pool: DevBuyPool.nullable().describe('The launchpad settings the owner chose; null: the service’s defaults on the chain.'),
    requestedAt: isoTime.nullable().describe('ISO 8601: when the launch was asked for; null until then (parameters editable).'),
    state: z
      .object({
        status: z
          .enum(['launching', 'launched', 'retrying', 'not_launched'])
          .describe(
            'launching: in progress; launched: the token is deployed and the dev buy split; retrying: the last attempt moved nothing and is retried; not_launched: no order could take part, nothing was launched (ask again).',
          ),
        tokenAddress: address.nullable().describe('The token deployed, or (launching) the one the launch deploys.'),
        txHash: z.string().nullable(),
        spentUsdc: z.string().nullable().describe('Stablecoin the buyers paid in, decimal USDC.'),
        ethIn: z.string().nullable().describe('ETH it bought and the dev buy spent.'),
        boughtTokens: z.string().nullable().describe('Tokens the dev buy bought, before the 3% fee.'),
        feeTokens: z.string().nullable().describe('The platform fee, tokens.'),
        filledOrders: z.int().nullable(),
        reason: z.string().nullable().describe('Why the last attempt moved nothing (retrying, not_launched).'),
        at: isoTime.describe('ISO 8601 time of the state.'),
      })
      .nullable(),
  })
  .describe('A dev-buy launch (docs/launch-methods.md).')

export const DevBuyParamsBody = z
  .strictObject({
    ...devBuyTextFields,
    tokenAdmin: addressSchema.optional().describe('The token’s admin on the launchpad; the owner key’s wallet when left out.'),
    ...lockTermsFields,
    pool: DevBuyPool.optional().describe('The launchpad settings; left out: the service’s defaults on the chain (Clanker’s Standard shape, 1% fee).'),
  })
  .describe('PATCH /projects/{slug}/dev-buy body.')

export const ProjectDetailSchema = ProjectProfileSchema.extend({
  project: z.object({
    launchpad: z.enum(LAUNCHPADS),
    chain: z.enum(CHAIN_KEYS),
    launchMethod: z.enum(LAUNCH_METHODS),
    creatorAddress: address,
  }),
  launch: z.object({
    status: z.enum(['pending', 'launched']),
    chain: z.enum(CHAIN_KEYS),
    tokenAddress: address.nullable(),
    launchedAt: isoTime.nullable().describe('ISO 8601; null before launch.'),
  }),
  stats: z.object({
    orderCount: z.int().describe('Live orders (active or executing).'),
    committedSpendUsdc: z
      .string()
      .describe(
        "Sum of the spend caps of live orders, in whole USDC rounded down to 2 significant figures (spend caps are owner-only: an exact sum would reveal a new buyer's).",
      ),
    fundedSpendUsdc: z
      .string()
      .nullable()
      .describe(
        "Sum over live orders of min(spend cap, the buyer wallet's stablecoin balance on the project's chain), in whole USDC rounded down to 2 significant figures; cached up to 15 s. null when the balances cannot be read right now.",
      ),
    filledOrderCount: z.int().describe('Orders the launch execution filled.'),
    filledSpendUsdc: z.string().describe('Stablecoin actually spent by the filled orders, in whole USDC rounded down to 2 significant figures.'),
  }),
  otc: OtcOfferSchema.nullable().describe('A pooled_otc project’s offer; null for other projects and until its owner sets one.'),
  devBuy: DevBuyLaunchSchema.nullable().describe('A dev_buy project’s launch; null for other projects and until its owner sets its parameters.'),
  changes: ProjectChanges,
  ownerStats: z
    .object({
      buyersCount: z.int().describe('Keys with a non-deleted order on the project.'),
      depthByPriceLimit: z.array(DepthLevel).describe('Live orders grouped by price limit, ascending; the no-limit level last.'),
      expectedTokenAddress: address
        .nullable()
        .describe('The token address recorded as expected at launch (PATCH /projects/{slug}/launch-binding); null when none.'),
    })
    .optional()
    .describe('Present only when the calling key owns the project.'),
}).describe('GET /projects/{slug}: the profile fields (2.3) at the top level plus launch facts and stats.')

export const Buyer = z
  .object({
    serviceWalletAddress: address,
    socialUsername: z.string().nullable(),
    socialUrl: z.string().nullable(),
    followerCount: z.int().describe('0 when the buyer has no linked social profile.'),
    orderStatus: z.enum(ORDER_STATUSES),
    orderedAt: isoTime.describe('ISO 8601 creation time of the order.'),
    maxSpendUsdc: z.string().optional().describe('Only for the key that owns the project.'),
    maxFdvUsdc: z.string().nullable().optional().describe('Only for the key that owns the project; null = no price limit.'),
  })
  .describe('A buyer: a key with a non-deleted order on the project.')

export const BuyerPageSchema = z.object({
  data: z.array(Buyer).describe('Follower count descending; ties in a stable order.'),
  meta: z.object({ total: z.int(), limit: z.int(), nextCursor: z.string().nullable() }),
})

// ---------- orders ----------

const Slug = z.string().min(1).max(200).describe('Project slug; the key of the order.')
const SpendField = z
  .string()
  .meta({ pattern: USD_DECIMAL_PATTERN, examples: ['250.5'] })
  .describe('Positive decimal USDC amount, at most 6 decimals, at most 10000000. Out of range -> item code invalid_amount.')
const FdvField = z
  .string()
  .meta({ pattern: USD_DECIMAL_PATTERN, examples: ['5000000'] })
  .nullable()
  .describe('Positive decimal USD, at most 6 decimals, at most 1e15; null = no price limit. Out of range -> invalid_fdv.')
// The service checks the range itself (item code invalid_expiry), so the body keeps z.number(); the document says integer.
const ExpiryField = z
  .number()
  .meta({ ...wholeNumber(MIN_EXPIRES_IN_MS, MAX_EXPIRES_IN_MS), examples: [86_400_000] })
  .describe(`Integer milliseconds, 1 to ${MAX_EXPIRES_IN_MS} (365 days), counted from launch. Out of range -> invalid_expiry.`)

export const CreateOrderItem = z
  .object({ slug: Slug, maxSpendUsdc: SpendField, maxFdvUsdc: FdvField, expiresInMs: ExpiryField })
  .describe('POST item: all four fields are required; maxFdvUsdc may be null (no price limit).')

export const PatchOrderItem = z
  .object({ slug: Slug, maxSpendUsdc: SpendField.optional(), maxFdvUsdc: FdvField.optional(), expiresInMs: ExpiryField.optional() })
  .refine(
    (item) => item.maxSpendUsdc !== undefined || item.maxFdvUsdc !== undefined || item.expiresInMs !== undefined,
    'at least one of maxSpendUsdc, maxFdvUsdc, expiresInMs is required',
  )
  // The refine above in the document: an item with only slug does not type-check in a generated client either.
  .meta({ anyOf: [{ required: ['maxSpendUsdc'] }, { required: ['maxFdvUsdc'] }, { required: ['expiresInMs'] }] })
  .describe('PATCH item: slug and at least one other field (otherwise the whole body is a 400).')

export const DeleteOrderItem = z.object({ slug: Slug })

const batchOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item).min(1).max(MAX_BATCH_ITEMS).describe(`1 to ${MAX_BATCH_ITEMS} items.`) })

export const CreateOrdersBody = batchOf(CreateOrderItem)
export const PatchOrdersBody = batchOf(PatchOrderItem)
export const DeleteOrdersBody = batchOf(DeleteOrderItem)

export const BatchResult = z
  .object({
    slug: z.string(),
    ok: z.boolean(),
    status: z
      .enum(Object.keys(ORDER_ITEM_STATUSES) as [keyof typeof ORDER_ITEM_STATUSES])
      .optional()
      .describe(`When ok is true:\n${bullet(ORDER_ITEM_STATUSES)}`),
    code: z
      .enum(Object.keys(ORDER_ITEM_CODES) as [keyof typeof ORDER_ITEM_CODES])
      .optional()
      .describe(`When ok is false (the full list):\n${bullet(ORDER_ITEM_CODES)}`),
    message: z.string().optional().describe('When ok is false.'),
  })
  .describe(
    'Outcome of one item; results are index-aligned with the request items. A slug repeated within one batch: the first occurrence is processed, later ones get duplicate_slug.',
  )

export const BatchResponse = z.object({ results: z.array(BatchResult) })

export const OrdersQuery = z.object({
  status: z.enum(ORDER_STATUSES).optional().describe('Only orders in this state. Without it every order except deleted ones is listed.'),
  cursor: Cursor,
  limit: Limit,
})

const VestingPosition = z.object({
  contract: address.describe('The vesting contract (PrebuyVesting).'),
  positionId: z.string(),
  tokenAddress: address,
  total: z.string().describe('Tokens in the position (= tokensReceived), smallest unit.'),
  start: isoTime.describe('ISO 8601: the settlement block’s time.'),
  lockupEnd: isoTime.describe('ISO 8601: nothing vests before it.'),
  vestingEnd: isoTime.describe('ISO 8601: everything has vested (linear from lockupEnd).'),
  vested: z.string().nullable().describe('At asOf, smallest unit; null when the chain could not be read (likewise the next three).'),
  locked: z.string().nullable(),
  released: z.string().nullable().describe('Already released to the wallet.'),
  releasable: z.string().nullable().describe('Vested and not released: a withdrawal releases it.'),
  asOf: isoTime.nullable().describe('ISO 8601: the chain’s latest block time the state is computed at.'),
})

export const Order = z
  .object({
    slug: z.string(),
    status: z
      .enum(ORDER_STATUSES)
      .describe(
        'active; deleted; executing (a buy is in flight); filled (bought); expired (the expiry after launch elapsed without a buy; funds stay); failed (the buy could not be made).',
      ),
    maxSpendUsdc: z.string().meta({ pattern: USD_DECIMAL_PATTERN }),
    maxFdvUsdc: z.string().meta({ pattern: USD_DECIMAL_PATTERN }).nullable(),
    expiresInMs: z.int(),
    createdAt: isoTime.describe('ISO 8601.'),
    updatedAt: isoTime.describe('ISO 8601.'),
    execution: z
      .object({
        spentUsdc: z.string().describe('Stablecoin spent (decimal).'),
        tokensReceived: z.string().describe('Tokens received after the 3% platform fee, smallest unit.'),
        feeTokens: z.string().describe('Platform fee taken in the bought token, smallest unit.'),
        txHash: z.string(),
        executedAt: isoTime.describe('ISO 8601.'),
        failureReason: z.string().optional(),
        vesting: VestingPosition.optional().describe(
          'Present when the order filled a locked offer: its tokens went into this vesting position in the wallet’s name, not to the wallet.',
        ),
        batch: z
          .object({
            chain: z.enum(CHAIN_KEYS),
            contract: z.string().describe('The batch contract (PrebuyBatchBuyer) holding the tokens until swept.'),
            batchId: z.string().describe('The batch (bytes32): one swap at one price for every order it holds.'),
          })
          .optional()
          .describe(
            'Present when the order bought in a batch (one swap, one price for every order of the block): tokensReceived is its committed share, held by the batch contract and sent to the wallet by a sweep in a later block.',
          ),
      })
      .optional()
      .describe('Present once the order was executed (filled or failed).'),
  })
  .describe('A buy order of the calling key.')

export const OrderPageSchema = z.object({
  data: z.array(Order).describe('Spend cap descending; equal spend by slug.'),
  meta: z.object({
    total: z.int().min(0).describe("The key's orders under the same status filter (every page of the walk)."),
    limit: z.int(),
    nextCursor: z.string().nullable(),
  }),
})

// ---------- wallet ----------

const BalanceEntry = z.object({
  address: address.describe('Token contract; native ETH is 0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE.'),
  symbol: z.string(),
  name: z.string(),
  decimals: z.int(),
  balance: z.string().describe('Integer amount in the smallest unit.'),
  vesting: z
    .object({
      locked: z.string().describe('Not vested yet, smallest unit (not included in balance).'),
      releasable: z
        .string()
        .describe('Vested and not released, smallest unit (not included in balance): a withdrawal of more than balance releases it in the same operation.'),
      lockedUntil: isoTime.nullable().describe('ISO 8601: when the last locked token vests; null once nothing is locked.'),
    })
    .optional()
    .describe('Present for a token the wallet holds in vesting positions (a locked launch method); listed with balance "0" if nothing is free.'),
})

export const Wallet = z.object({
  serviceWalletAddress: address,
  balances: z
    .object({
      base: z.array(BalanceEntry),
      second_chain: z.array(BalanceEntry).optional().describe('Absent when this service does not run on that chain (disabled in its configuration).'),
    })
    .describe('Per supported chain: the spend currency first ("0" when none), then native ETH, then indexed tokens the wallet holds.'),
})

export const WithdrawalBody = z.object({
  chain: z.enum(CHAIN_KEYS).optional().describe('Chain to withdraw from; default base.'),
  tokenAddress: address.min(1).describe('ERC-20 contract on that chain, or the native ETH pseudo-address.'),
  withdrawAddress: address.min(1).describe('Destination address.'),
  amount: z
    .string()
    .min(1)
    .meta({ pattern: `${DECIMAL_PATTERN_TEXT}|^max$`, examples: ['1.5', 'max'] })
    .describe(
      'Decimal amount in token units ("1.5"), or "max" for the whole balance. Up to balance + vesting.releasable: what has vested is released in the same operation; more is refused with tokens_locked.',
    ),
})

export const Withdrawal = z.object({
  txHash: z.string().describe('Hash of the mined transaction (after its receipt).'),
  chain: z.enum(CHAIN_KEYS),
  tokenAddress: address,
  withdrawAddress: address,
  amount: z.string().describe('Amount sent, integer in the smallest unit.'),
})

/** A token symbol or name as recorded for the binding: printable, no surrounding whitespace to compare by accident. */
const tokenText = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((text) => !/\p{Cc}/u.test(text), 'control characters are not allowed')

export const LaunchBindingBody = z
  .strictObject({
    expectedTokenAddress: addressSchema
      .nullable()
      .optional()
      .describe(
        'The address the token will have at launch (Clanker: from the deployment salt; Zora: coinAddress; Doppler: the CREATE2 asset address), or null to clear it. With the registered deployer, a launch of that token binds the project; sent by anyone else it is rejected.',
      ),
    expectedSymbol: tokenText(64)
      .nullable()
      .optional()
      .describe(
        'The token symbol, exactly as the token will report it (case kept), or null to clear it. With the registered deployer, a launch of that symbol binds the project.',
      ),
    expectedName: tokenText(200).nullable().optional().describe('The token name, with the symbol: when recorded, a launch must have it too; null clears it.'),
  })
  .refine((body) => body.expectedTokenAddress !== undefined || body.expectedSymbol !== undefined || body.expectedName !== undefined, {
    message: 'Give at least one of expectedTokenAddress, expectedSymbol, expectedName.',
  })
  .describe(
    'PATCH /projects/{slug}/launch-binding body: the second fact that binds the project with its registered deployer (docs/launch-authenticity.md). Absent fields stay as they are.',
  )

export const LaunchBindingSchema = z
  .object({
    slug: z.string(),
    creatorAddress: address.describe(
      'The registered deployer: a launch binds the project only when sent by it, with a second fact (the expected token, the symbol, or the operator’s confirmation).',
    ),
    expectedTokenAddress: address.nullable().describe('In force now.'),
    expectedSymbol: z.string().nullable().describe('In force now; null: none recorded.'),
    expectedName: z.string().nullable().describe('In force now; null: none recorded.'),
    pendingChange: PendingChange.nullable().describe('The owner’s change of the binding waiting for the operator (or its notice period); null: none.'),
  })
  .describe('What binds a project to its launch: in force now, and the pending change if any.')

// ---------- the types these schemas publish ----------

/** Whether every value of T passes the schema S (what the service returns is what the document promises). */
type Admits<S extends z.ZodType, T> = [T] extends [z.input<S>] ? true : false
type Holds<T extends true> = T

/**
 * Each name once (docs/architecture.md): a body a service or the domain builds is typed there, in the lower layer, and
 * its schema here takes the name `<Type>Schema` (the OpenAPI component keeps the spec's name, openapi.ts). These
 * checks fail `tsc` when a schema stops admitting what its type allows, naming the pair.
 */
export type PublishedTypes = [
  Holds<Admits<typeof ReceiptSchema, Receipt>>,
  Holds<Admits<typeof ProjectProfileSchema, ProjectProfile>>,
  Holds<Admits<typeof ProjectPageSchema, ProjectPage>>,
  Holds<Admits<typeof ProjectDetailSchema, ProjectDetail>>,
  Holds<Admits<typeof OtcOfferSchema, OtcOfferView>>,
  Holds<Admits<typeof DevBuyLaunchSchema, DevBuyLaunchView>>,
  Holds<Admits<typeof LaunchSimulationSchema, LaunchSimulation>>,
  Holds<Admits<typeof BuyerPageSchema, BuyerPage>>,
  Holds<Admits<typeof OrderPageSchema, OrderPage>>,
]
