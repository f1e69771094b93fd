import { z } from 'zod'
import { CHAIN_KEYS } from '../chain/chain-keys.ts'
import { DevBuyLaunchSchema, OtcOfferSchema } from '../api/schemas.ts'
import { BLOCK_TYPES, LAUNCH_METHODS, LAUNCHPADS, ORDER_STATUSES, REVIEW_STATUSES } from '../domain/records.ts'

/**
 * The pieces the admin API's answers are checked with (the route table's `response` schemas, admin-routes.ts, and the
 * `--json` results of the commands that print something else, command-results.ts). The TypeScript result types live
 * with the admin contract (contract.ts); these schemas follow them. Large nested records check their key fields.
 */

export const chain = z.enum(CHAIN_KEYS)
export const hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
export const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
export const decimal = z.string().regex(/^\d+(\.\d+)?$/)
export const integerString = z.string().regex(/^\d+$/)
export const time = z.number().int().nonnegative()

/** A project's pooled OTC offer (the public API's OtcOffer schema). */
export const otcResult = z.strictObject({ slug: z.string(), otc: OtcOfferSchema.nullable() })
/** A project's dev-buy launch (the public API's DevBuyLaunch schema). */
export const devBuyResult = z.strictObject({ slug: z.string(), devBuy: DevBuyLaunchSchema.nullable() })

export const projectRecord = z.object({
  slug: z.string(),
  profile: z.object({
    identity: z.object({ slug: z.string(), displayName: z.string(), socialId: z.number(), microblogHandle: z.string().nullable(), socialUsername: z.string() }),
    content: z.object({
      bannerImageUrl: z.string(),
      pfpUrl: z.string(),
      bio: z.array(z.string()),
      websiteUrl: z.string(),
      teamMembers: z.array(z.object({ name: z.string() })),
    }),
    status: z.object({ isProfileRegistered: z.boolean(), isLaunchVerified: z.boolean(), hasSniperProtection: z.boolean() }),
  }),
  creatorAddress: z.string(),
  expectedTokenAddress: z.string().nullable(),
  expectedSymbol: z.string().nullable().optional(),
  expectedName: z.string().nullable().optional(),
  launchpad: z.enum(LAUNCHPADS),
  chain,
  launchMethod: z.enum(LAUNCH_METHODS),
  ownerKeyId: z.string().nullable(),
  status: z.literal('approved'),
  registrationId: z.string().nullable(),
  launch: z.object({ chain, tokenAddress: z.string(), symbol: z.string(), name: z.string(), decimals: z.number(), launchedAt: time }).nullable(),
  createdAt: time,
  updatedAt: time,
})

export const reviewItem = z.object({
  id: z.string(),
  kind: z.enum(['key_request', 'registration', 'feedback']),
  status: z.enum(REVIEW_STATUSES),
  requesterIp: z.string(),
  createdAt: time,
  decidedAt: time.nullable(),
  submission: z.object({ contact: z.string() }),
})

export const issuedKey = z.strictObject({ apiKey: z.string().startsWith('prebuy_'), keyId: z.string(), label: z.string(), serviceWalletAddress: address })
export const keySummary = z.strictObject({
  keyId: z.string(),
  label: z.string(),
  serviceWalletAddress: address,
  createdAt: time,
  revokedAt: time.nullable(),
  ownedProjectSlugs: z.array(z.string()),
})
export const blockEntry = z.object({ type: z.enum(BLOCK_TYPES), value: z.string(), createdAt: time, note: z.string().optional() })
export const desk = z.strictObject({ open: z.boolean(), retryAfterSeconds: z.number().int(), updatedAt: time })
export const candidateView = z.object({
  slug: z.string(),
  chain,
  launchpad: z.enum(LAUNCHPADS),
  token: address,
  deployer: address,
  txHash: hex,
  blockNumber: integerString,
  status: z.enum(['rejected', 'awaiting_confirmation', 'confirmed', 'quarantined', 'unsupported']),
  reason: z.string(),
  attempts: z.number().int(),
})
export const orderRecord = z.object({
  keyId: z.string(),
  slug: z.string(),
  status: z.enum(ORDER_STATUSES),
  maxSpendUsdc: decimal,
  maxFdvUsdc: decimal.nullable(),
  expiresInMs: z.number().int(),
  createdAt: time,
  updatedAt: time,
  execution: z
    .object({
      spentUsdc: decimal,
      tokensReceived: integerString,
      feeTokens: integerString,
      txHash: z.string(),
      executedAt: time,
      // A locked launch method's position, as recorded from PositionCreated (its state now is on GET /orders).
      vesting: z
        .strictObject({
          chain,
          contract: address,
          positionId: integerString,
          tokenAddress: address,
          total: integerString,
          start: z.number().int(),
          lockupEnd: z.number().int(),
          vestingSeconds: z.number().int(),
        })
        .optional(),
    })
    .optional(),
})
export const tally = z.strictObject({ count: z.number().int().nonnegative(), spendUsdc: decimal })
export const tallies = z.strictObject(Object.fromEntries(ORDER_STATUSES.map((s) => [s, tally])) as Record<(typeof ORDER_STATUSES)[number], typeof tally>)
export const launchSummary = z.strictObject({
  slug: z.string(),
  chain,
  launchpad: z.enum(LAUNCHPADS),
  token: address,
  symbol: z.string(),
  poolId: hex,
  blockNumber: integerString,
  launchedAt: time,
  latestTick: z
    .strictObject({
      blockNumber: integerString,
      fdvUsdAtoms: integerString,
      effectiveCapAtoms: integerString.nullable(),
      totalFeeFraction: z.number(),
      swapsAllowed: z.boolean(),
    })
    .nullable(),
  orders: tallies,
})
export const connection = z.strictObject({ text: z.string(), tone: z.enum(['ok', 'warn', 'bad']) })
export const list = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item) })
