import { z } from 'zod'
import { CHAIN_KEYS } from '../chain/chain-keys.ts'
import { ChangeTerms, DevBuyLaunch, LaunchSimulation, OtcOffer, PendingChange, ProjectChanges } from '../api/schemas.ts'
import { BLOCK_TYPES, LAUNCH_METHODS, LAUNCHPADS, ORDER_STATUSES, REVIEW_STATUSES } from '../domain/records.ts'

/**
 * What each CLI command prints with `--json`, as zod schemas keyed by the command's id (`daemon:status`): the
 * documented result of every command, checked by the tests against what the commands really print (test/daemon/
 * helpers.ts runCli validates every `--json` output it sees; test/unit/cli/command-results.test.ts checks every
 * command has one). The TypeScript result types live with the admin contract (contract.ts); these schemas follow them.
 * Top-level shapes are strict (a field added or dropped is noticed); large nested records check their key fields.
 */

const chain = z.enum(CHAIN_KEYS)
const hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/)
const decimal = z.string().regex(/^\d+(\.\d+)?$/)
const integerString = z.string().regex(/^\d+$/)
const time = z.number().int().nonnegative()

/** A project's pooled OTC offer (the public API's OtcOffer schema). */
const otcResult = z.strictObject({ slug: z.string(), otc: OtcOffer.nullable() })
/** A project's dev-buy launch (the public API's DevBuyLaunch schema). */
const devBuyResult = z.strictObject({ slug: z.string(), devBuy: DevBuyLaunch.nullable() })

const projectRecord = z.object({
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

const reviewItem = z.object({
  id: z.string(),
  kind: z.enum(['key_request', 'registration', 'feedback']),
  status: z.enum(REVIEW_STATUSES),
  requesterIp: z.string(),
  createdAt: time,
  decidedAt: time.nullable(),
  submission: z.object({ contact: z.string() }),
})

const issuedKey = z.strictObject({ apiKey: z.string().startsWith('prebuy_'), keyId: z.string(), label: z.string(), serviceWalletAddress: address })
const keySummary = z.strictObject({
  keyId: z.string(),
  label: z.string(),
  serviceWalletAddress: address,
  createdAt: time,
  revokedAt: time.nullable(),
  ownedProjectSlugs: z.array(z.string()),
})
const blockEntry = z.object({ type: z.enum(BLOCK_TYPES), value: z.string(), createdAt: time, note: z.string().optional() })
const desk = z.strictObject({ open: z.boolean(), retryAfterSeconds: z.number().int(), updatedAt: time })
const candidateView = z.object({
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
const orderRecord = z.object({
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
const tally = z.strictObject({ count: z.number().int().nonnegative(), spendUsdc: decimal })
const tallies = z.strictObject(Object.fromEntries(ORDER_STATUSES.map((s) => [s, tally])) as Record<(typeof ORDER_STATUSES)[number], typeof tally>)
const launchSummary = z.strictObject({
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
const connection = z.strictObject({ text: z.string(), tone: z.enum(['ok', 'warn', 'bad']) })
const list = <T extends z.ZodType>(item: T) => z.strictObject({ items: z.array(item) })

export const COMMAND_RESULTS = {
  backup: z.strictObject({
    file: z.string(),
    bytes: z.number().int(),
    entries: z.number().int(),
    files: z.array(z.string()),
    storeVersion: z.number().int(),
    createdAt: z.string(),
    source: z.enum(['daemon', 'offline']),
  }),
  restore: z.strictObject({
    dataDir: z.string(),
    entries: z.number().int(),
    files: z.array(z.string()),
    storeVersion: z.number().int(),
    backupCreatedAt: z.string(),
    movedAside: z.array(z.string()),
  }),
  'blocklist:add': z.strictObject({ entry: blockEntry }),
  'blocklist:list': list(blockEntry),
  'blocklist:remove': z.strictObject({ removed: z.boolean() }),
  'daemon:status': z.strictObject({
    version: z.string(),
    pid: z.number().int(),
    url: z.string(),
    adminUrl: z.string(),
    dataDir: z.string(),
    startedAt: z.string(),
    uptimeSeconds: z.number().int(),
    chains: z.strictObject({ mode: z.enum(['devnet', 'rpc']), chainIds: z.partialRecord(chain, z.number().int()), disabled: z.array(chain) }),
    bundlers: z.partialRecord(chain, z.strictObject({ address, balanceEth: z.string().nullable(), level: z.enum(['ok', 'low', 'unknown']) })),
    contracts: z.partialRecord(chain, z.array(z.strictObject({ name: z.string(), address, deployed: z.boolean().nullable() }))),
    readiness: z.strictObject({
      ready: z.boolean(),
      problems: z.array(z.string()),
      checks: z.strictObject({
        store: z.enum(['ok', 'closed', 'write_failed']),
        chains: z.record(
          z.string(),
          z.strictObject({
            head: integerString.nullable(),
            indexed: integerString.nullable(),
            lagBlocks: z.string().nullable(),
            status: z.enum(['ok', 'unreachable', 'behind', 'not_indexed']),
          }),
        ),
        contracts: z.record(z.string(), z.enum(['ok', 'missing', 'unknown'])).optional(),
      }),
    }),
    queues: z.strictObject({
      inFlightBuys: z.number().int(),
      pendingReviews: z.number().int(),
      activeOrders: z.number().int(),
      candidatesAwaitingConfirmation: z.number().int(),
      quarantinedLaunches: z.number().int(),
    }),
  }),
  'contracts:deploy': z.strictObject({
    chain,
    deployer: address,
    contracts: z.array(z.strictObject({ name: z.string(), address, status: z.enum(['deployed', 'already_deployed']) })).min(1),
  }),
  'daemon:stop': z.strictObject({ pid: z.number().int(), stopped: z.literal(true) }),
  'devnet:deployments': z.record(z.string(), z.unknown()),
  'devnet:fund': z.strictObject({ funded: z.array(z.strictObject({ chain, address, usdc: decimal, eth: decimal })) }),
  'devnet:launch': z.strictObject({
    chain,
    launchpad: z.enum(LAUNCHPADS),
    creator: address,
    sender: address,
    token: address,
    paired: z.strictObject({ kind: z.string(), address }),
    devBuyEth: z.string().optional(),
    poolId: hex,
    txHash: hex,
    blockNumber: integerString,
    auctionBid: z.strictObject({ bidder: address, txHash: hex, blockNumber: integerString, paymentEth: z.string(), round: z.number().int() }).optional(),
  }),
  'devnet:mine': z.strictObject({ chain: z.union([chain, z.literal('all')]), blocks: z.number().int(), blockNumbers: z.record(z.string(), integerString) }),
  'devnet:swap': z.strictObject({
    chain,
    token: address,
    usdc: decimal,
    txHash: hex,
    blockNumber: integerString,
    tokensOut: integerString,
    feePips: z.number().int(),
  }),
  'executions:replay': z.strictObject({
    slug: z.string(),
    ticks: z.number().int(),
    checkable: z.number().int(),
    differing: z.array(z.strictObject({ tick: z.number().int(), blockNumber: integerString, reason: z.string(), differences: z.array(z.string()) })),
  }),
  'feedback:list': list(reviewItem),
  'key-requests:approve': z.strictObject({ review: reviewItem, key: issuedKey }),
  'key-requests:list': list(reviewItem),
  'key-requests:reject': z.strictObject({ review: reviewItem }),
  'keys:link-social': z.strictObject({
    key: keySummary,
    social: z.strictObject({ socialId: z.number().int(), socialUsername: z.string(), socialUrl: z.string(), followerCount: z.number().int() }).nullable(),
  }),
  'keys:list': list(keySummary),
  'keys:revoke': z.strictObject({ key: keySummary, cancelledOrders: z.number().int() }),
  'keys:rotate': z.strictObject({ key: issuedKey, rotatedAt: time }),
  'launches:candidates': z.strictObject({
    candidates: z.array(candidateView),
    quarantinedLogs: z.array(
      z.object({ chain, txHash: hex, logIndex: z.number().int(), blockNumber: integerString, error: z.string(), attempts: z.number().int() }),
    ),
  }),
  'launches:confirm': z.strictObject({ candidate: candidateView }),
  'launches:list': list(launchSummary),
  'launches:show': z.strictObject({
    summary: launchSummary,
    launch: z.object({ slug: z.string(), chain, launchpad: z.enum(LAUNCHPADS), token: address, poolId: hex, txHash: hex, blockNumber: integerString }),
    candidates: z.array(candidateView),
  }),
  'launches:watch': z.strictObject({
    title: z.string(),
    connection,
    launched: z.array(
      z.strictObject({
        slug: z.string(),
        heading: z.string(),
        block: integerString,
        spotFdv: z.string(),
        feeNow: z.string(),
        feeNext: z.string(),
        effectiveCap: z.string(),
        swapsAllowed: z.boolean(),
        sparkline: z.string(),
        orders: z.array(z.strictObject({ label: z.string(), count: z.number().int(), spend: z.string() })),
        latency: z.string(),
        swaps: z.array(z.string()),
        actions: z.array(z.string()),
      }),
    ),
    selected: z.number().int(),
    candidates: z.array(z.strictObject({ slug: z.string(), status: z.string(), token: z.string(), reason: z.string() })),
    waiting: z.array(
      z.strictObject({
        slug: z.string(),
        chain: z.string(),
        launchpad: z.string(),
        method: z.string(),
        orders: z.number().int(),
        spend: z.string(),
        limits: z.string(),
      }),
    ),
    empty: z.string().nullable(),
    help: z.string(),
  }),
  'orders:list': list(orderRecord.extend({ label: z.string() })),
  'projects:list': list(projectRecord),
  'projects:show': z.strictObject({ project: projectRecord, orders: tallies, launch: launchSummary.nullable() }),
  'projects:update': z.strictObject({ project: projectRecord }),
  /** An alias of projects:update. */
  'projects:edit': z.strictObject({ project: projectRecord }),
  'projects:verify': z.strictObject({ project: projectRecord }),
  'projects:changes': list(
    z.strictObject({ slug: z.string(), displayName: z.string(), change: PendingChange, inForce: ChangeTerms.nullable(), ordersBefore: z.number().int() }),
  ),
  'projects:confirm-change': z.strictObject({
    slug: z.string(),
    outcome: z.enum(['in_force', 'awaiting_notice']),
    pendingChange: PendingChange.nullable(),
    changes: ProjectChanges,
  }),
  'projects:reject-change': z.strictObject({ slug: z.string(), changes: ProjectChanges }),
  'otc:show': otcResult,
  'launches:simulate': LaunchSimulation.strict(),
  'otc:set': otcResult,
  'otc:deposit': otcResult,
  'otc:cancel': otcResult,
  'devbuy:show': devBuyResult,
  'devbuy:set': devBuyResult,
  'launches:start': devBuyResult,
  'registrations:approve': z.strictObject({ review: reviewItem, project: projectRecord, key: issuedKey, deployerWarnings: z.array(z.string()).optional() }),
  'registrations:list': list(reviewItem),
  'registrations:reject': z.strictObject({ review: reviewItem }),
  review: z.object({
    title: z.string(),
    connection,
    counts: z.string(),
    rows: z.array(
      z.strictObject({ id: z.string(), kind: z.string(), name: z.string(), contact: z.string(), ip: z.string(), received: z.string(), selected: z.boolean() }),
    ),
    keyBox: z.null(),
    help: z.string(),
  }),
  'submissions:close': desk,
  'submissions:open': desk,
} satisfies Record<string, z.ZodType>

/** Commands that print no JSON result: `daemon start` runs the daemon in the foreground. */
export const COMMANDS_WITHOUT_RESULT = ['daemon:start'] as const

export type CommandId = keyof typeof COMMAND_RESULTS

/** The schema of the command `args` (a CLI argument list) runs: the longest leading run of words naming a command. */
export function resultSchemaOf(args: readonly string[]): { id: CommandId; schema: z.ZodType } | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'))
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const id = words.slice(0, n).join(':')
    if (id in COMMAND_RESULTS) return { id: id as CommandId, schema: COMMAND_RESULTS[id as CommandId] }
  }
  return undefined
}
