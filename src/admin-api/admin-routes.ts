import { z } from 'zod'
import { ChangeTerms, LaunchSimulationSchema, PendingChange, ProjectChanges } from '../api/schemas.ts'
import {
  adminRequests,
  type AddBlockResult,
  type ApproveKeyRequestResult,
  type ApproveRegistrationResult,
  type BlockEntry,
  type ConfirmChangeResult,
  type ConfirmLaunchResult,
  type DaemonStatus,
  type DeployContractsResult,
  type Deployments,
  type DeskSettings,
  type DevBuyResult,
  type DevnetFundResult,
  type DevnetLaunchResult,
  type DevnetSwapResult,
  type ExecutionJournal,
  type KeySummary,
  type LaunchCandidatesResult,
  type LaunchDetail,
  type LaunchSimulation,
  type LaunchSummary,
  type LinkSocialResult,
  type ListResponse,
  type MineResult,
  type OperatorOrderView,
  type OtcResult,
  type PendingChangeItemView,
  type OperatorProjectDetail,
  type ProjectRecord,
  type RejectChangeResult,
  type RejectResult,
  type RemoveBlockResult,
  type ReviewItem,
  type RevokeKeyResult,
  type RotateKeyResult,
  type UpdateBindingResult,
  type UpdateProfileResult,
} from './contract.ts'
import {
  address,
  blockEntry,
  candidateView,
  chain,
  decimal,
  desk,
  devBuyResult,
  hex,
  integerString,
  issuedKey,
  keySummary,
  launchSummary,
  list,
  orderRecord,
  otcResult,
  projectRecord,
  reviewItem,
  tallies,
  time,
} from './result-schemas.ts'
import { LAUNCHPADS } from '../domain/records.ts'

/**
 * The admin API's route table: every operation's method, path, request schemas (contract.ts), answer and the CLI
 * commands whose `--json` prints that answer. The daemon serves each route from it (daemon/admin/serve-admin-route.ts)
 * and the client calls each route from it (src/admin-client/admin-client.ts); no other file writes an admin URL
 * (test/unit/admin-api/admin-routes.test.ts). Adding an operation: a row here, its implementation in
 * daemon/admin/service-operations.ts (the compiler asks for it), and the command that calls `client.call(name, input)`.
 *
 * A path's `:id` is the route's one parameter (a review id, a project slug, a key id or label); `response` is checked
 * against what the commands print (test/daemon/helpers.ts) and is looser than the TypeScript answer it follows.
 */
export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface AdminRoute {
  readonly method: AdminMethod
  readonly path: `/admin/v1/${string}`
  readonly query?: z.ZodType
  readonly body?: z.ZodType
  /** The answer's schema: what `--json` prints for each command of `commands`. */
  readonly response: z.ZodType
  readonly commands: readonly string[]
}

declare const ANSWER: unique symbol
/** A route whose answer has the TypeScript type Result (carried by the type only). */
export type Answering<R extends AdminRoute, Result> = R & { readonly [ANSWER]?: Result }

const route =
  <Result>() =>
  <const R extends AdminRoute>(spec: R): Answering<R, Result> =>
    spec

/** What a caller gives a route: the `:id`, the query and the body, each only where the route has one. */
export type RouteInput<R extends AdminRoute> = (R['path'] extends `${string}:id${string}` ? { id: string } : unknown) &
  (R extends { query: infer Q extends z.ZodType } ? { query: z.input<Q> } : unknown) &
  (R extends { body: infer B extends z.ZodType } ? { body: z.input<B> } : unknown)

/** The same once the daemon parsed it: defaults applied, addresses typed. */
export type ValidRouteInput<R extends AdminRoute> = (R['path'] extends `${string}:id${string}` ? { id: string } : unknown) &
  (R extends { query: infer Q extends z.ZodType } ? { query: z.output<Q> } : unknown) &
  (R extends { body: infer B extends z.ZodType } ? { body: z.output<B> } : unknown)

export type RouteResult<R extends AdminRoute> = R extends { readonly [ANSWER]?: infer Result } ? Exclude<Result, undefined> : never

/** The operator's own operations, served by daemon/admin/service-operations.ts. */
export const OPERATOR_ROUTES = {
  status: route<DaemonStatus>()({
    method: 'GET',
    path: '/admin/v1/status',
    response: z.strictObject({
      version: z.string(),
      pid: z.number().int(),
      url: z.string(),
      adminUrl: z.string(),
      dataDir: z.string(),
      startedAt: z.string(),
      uptimeSeconds: z.number().int(),
      chains: z.strictObject({ mode: z.enum(['devnet', 'rpc']), chainIds: z.partialRecord(chain, z.number().int()), disabled: z.array(chain) }),
      bundlers: z.partialRecord(
        chain,
        z.strictObject({
          address,
          balanceEth: z.string().nullable(),
          level: z.enum(['ok', 'low', 'unknown']),
          senders: z.array(z.strictObject({ address, balanceEth: z.string().nullable(), level: z.enum(['ok', 'low', 'unknown']) })),
        }),
      ),
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
    commands: ['daemon:status'],
  }),
  listReviews: route<ListResponse<ReviewItem>>()({
    method: 'GET',
    path: '/admin/v1/reviews',
    query: adminRequests.reviewsQuery,
    response: list(reviewItem),
    commands: ['registrations:list', 'key-requests:list', 'feedback:list'],
  }),
  approveRegistration: route<ApproveRegistrationResult>()({
    method: 'POST',
    path: '/admin/v1/registrations/:id/approve',
    body: adminRequests.approveRegistration,
    response: z.strictObject({ review: reviewItem, project: projectRecord, key: issuedKey, deployerWarnings: z.array(z.string()).optional() }),
    commands: ['registrations:approve'],
  }),
  rejectRegistration: route<RejectResult>()({
    method: 'POST',
    path: '/admin/v1/registrations/:id/reject',
    body: adminRequests.reject,
    response: z.strictObject({ review: reviewItem }),
    commands: ['registrations:reject'],
  }),
  approveKeyRequest: route<ApproveKeyRequestResult>()({
    method: 'POST',
    path: '/admin/v1/key-requests/:id/approve',
    body: adminRequests.approveKeyRequest,
    response: z.strictObject({ review: reviewItem, key: issuedKey }),
    commands: ['key-requests:approve'],
  }),
  rejectKeyRequest: route<RejectResult>()({
    method: 'POST',
    path: '/admin/v1/key-requests/:id/reject',
    body: adminRequests.reject,
    response: z.strictObject({ review: reviewItem }),
    commands: ['key-requests:reject'],
  }),
  listProjects: route<ListResponse<ProjectRecord>>()({
    method: 'GET',
    path: '/admin/v1/projects',
    response: list(projectRecord),
    commands: ['projects:list'],
  }),
  getProject: route<OperatorProjectDetail>()({
    method: 'GET',
    path: '/admin/v1/projects/:id',
    response: z.strictObject({ project: projectRecord, orders: tallies, launch: launchSummary.nullable() }),
    commands: ['projects:show'],
  }),
  updateProfile: route<UpdateProfileResult>()({
    method: 'PATCH',
    path: '/admin/v1/projects/:id',
    body: adminRequests.profileUpdate,
    response: z.strictObject({ project: projectRecord }),
    commands: ['projects:update', 'projects:edit', 'projects:verify'],
  }),
  updateBinding: route<UpdateBindingResult>()({
    method: 'PATCH',
    path: '/admin/v1/projects/:id/binding',
    body: adminRequests.projectBinding,
    response: z.strictObject({ project: projectRecord, deployerWarnings: z.array(z.string()).optional() }),
    commands: [],
  }),
  getOtc: route<OtcResult>()({
    method: 'GET',
    path: '/admin/v1/projects/:id/otc',
    response: otcResult,
    commands: ['otc:show'],
  }),
  setOtc: route<OtcResult>()({
    method: 'PATCH',
    path: '/admin/v1/projects/:id/otc',
    body: adminRequests.otcOffer,
    response: otcResult,
    commands: ['otc:set'],
  }),
  depositOtc: route<OtcResult>()({
    method: 'POST',
    path: '/admin/v1/projects/:id/otc/deposit',
    response: otcResult,
    commands: ['otc:deposit'],
  }),
  cancelOtc: route<OtcResult>()({
    method: 'DELETE',
    path: '/admin/v1/projects/:id/otc',
    response: otcResult,
    commands: ['otc:cancel'],
  }),
  getDevBuy: route<DevBuyResult>()({
    method: 'GET',
    path: '/admin/v1/projects/:id/dev-buy',
    response: devBuyResult,
    commands: ['devbuy:show'],
  }),
  setDevBuy: route<DevBuyResult>()({
    method: 'PATCH',
    path: '/admin/v1/projects/:id/dev-buy',
    body: adminRequests.devBuyParams,
    response: devBuyResult,
    commands: ['devbuy:set'],
  }),
  launchDevBuy: route<DevBuyResult>()({
    method: 'POST',
    path: '/admin/v1/projects/:id/dev-buy/launch',
    response: devBuyResult,
    commands: ['launches:start'],
  }),
  simulateLaunch: route<LaunchSimulation>()({
    method: 'GET',
    path: '/admin/v1/projects/:id/simulation',
    query: adminRequests.simulationQuery,
    response: LaunchSimulationSchema.strict(),
    commands: ['launches:simulate'],
  }),
  pendingChanges: route<ListResponse<PendingChangeItemView>>()({
    method: 'GET',
    path: '/admin/v1/owner-changes',
    response: list(
      z.strictObject({ slug: z.string(), displayName: z.string(), change: PendingChange, inForce: ChangeTerms.nullable(), ordersBefore: z.number().int() }),
    ),
    commands: ['projects:changes'],
  }),
  confirmChange: route<ConfirmChangeResult>()({
    method: 'POST',
    path: '/admin/v1/projects/:id/changes/confirm',
    body: adminRequests.confirmChange,
    response: z.strictObject({
      slug: z.string(),
      outcome: z.enum(['in_force', 'awaiting_notice']),
      pendingChange: PendingChange.nullable(),
      changes: ProjectChanges,
    }),
    commands: ['projects:confirm-change'],
  }),
  rejectChange: route<RejectChangeResult>()({
    method: 'POST',
    path: '/admin/v1/projects/:id/changes/reject',
    body: adminRequests.rejectChange,
    response: z.strictObject({ slug: z.string(), changes: ProjectChanges }),
    commands: ['projects:reject-change'],
  }),
  listLaunches: route<ListResponse<LaunchSummary>>()({
    method: 'GET',
    path: '/admin/v1/launches',
    response: list(launchSummary),
    commands: ['launches:list'],
  }),
  launchCandidates: route<LaunchCandidatesResult>()({
    method: 'GET',
    path: '/admin/v1/launches/candidates',
    query: adminRequests.launchCandidatesQuery,
    response: z.strictObject({
      candidates: z.array(candidateView),
      quarantinedLogs: z.array(
        z.object({ chain, txHash: hex, logIndex: z.number().int(), blockNumber: integerString, error: z.string(), attempts: z.number().int() }),
      ),
    }),
    commands: ['launches:candidates'],
  }),
  getLaunch: route<LaunchDetail>()({
    method: 'GET',
    path: '/admin/v1/launches/:id',
    response: z.strictObject({
      summary: launchSummary,
      launch: z.object({ slug: z.string(), chain, launchpad: z.enum(LAUNCHPADS), token: address, poolId: hex, txHash: hex, blockNumber: integerString }),
      candidates: z.array(candidateView),
    }),
    commands: ['launches:show'],
  }),
  confirmLaunch: route<ConfirmLaunchResult>()({
    method: 'POST',
    path: '/admin/v1/launches/:id/confirm',
    body: adminRequests.confirmLaunch,
    response: z.strictObject({ candidate: candidateView }),
    commands: ['launches:confirm'],
  }),
  executionJournal: route<ExecutionJournal>()({
    method: 'GET',
    path: '/admin/v1/launches/:id/journal',
    response: z.object({ slug: z.string() }),
    commands: [],
  }),
  listKeys: route<ListResponse<KeySummary>>()({
    method: 'GET',
    path: '/admin/v1/keys',
    response: list(keySummary),
    commands: ['keys:list'],
  }),
  revokeKey: route<RevokeKeyResult>()({
    method: 'POST',
    path: '/admin/v1/keys/:id/revoke',
    response: z.strictObject({ key: keySummary, cancelledOrders: z.number().int() }),
    commands: ['keys:revoke'],
  }),
  rotateKey: route<RotateKeyResult>()({
    method: 'POST',
    path: '/admin/v1/keys/:id/rotate',
    response: z.strictObject({ key: issuedKey, rotatedAt: time }),
    commands: ['keys:rotate'],
  }),
  linkSocial: route<LinkSocialResult>()({
    method: 'PUT',
    path: '/admin/v1/keys/:id/social',
    body: adminRequests.linkSocial,
    response: z.strictObject({
      key: keySummary,
      social: z.strictObject({ socialId: z.number().int(), socialUsername: z.string(), socialUrl: z.string(), followerCount: z.number().int() }).nullable(),
    }),
    commands: ['keys:link-social'],
  }),
  listOrders: route<ListResponse<OperatorOrderView>>()({
    method: 'GET',
    path: '/admin/v1/orders',
    query: adminRequests.ordersQuery,
    response: list(orderRecord.extend({ label: z.string() })),
    commands: ['orders:list'],
  }),
  getDesk: route<DeskSettings>()({
    method: 'GET',
    path: '/admin/v1/desk',
    response: desk,
    commands: [],
  }),
  setDesk: route<DeskSettings>()({
    method: 'PUT',
    path: '/admin/v1/desk',
    body: adminRequests.deskUpdate,
    response: desk,
    commands: ['submissions:open', 'submissions:close'],
  }),
  listBlocklist: route<ListResponse<BlockEntry>>()({
    method: 'GET',
    path: '/admin/v1/blocklist',
    response: list(blockEntry),
    commands: ['blocklist:list'],
  }),
  addBlock: route<AddBlockResult>()({
    method: 'POST',
    path: '/admin/v1/blocklist',
    body: adminRequests.block,
    response: z.strictObject({ entry: blockEntry }),
    commands: ['blocklist:add'],
  }),
  removeBlock: route<RemoveBlockResult>()({
    method: 'DELETE',
    path: '/admin/v1/blocklist',
    body: adminRequests.unblock,
    response: z.strictObject({ removed: z.boolean() }),
    commands: ['blocklist:remove'],
  }),
} as const

/** `prebuy contracts ...`: served when the daemon can deploy its own contracts (daemon/admin/contracts-routes.ts). */
export const CONTRACTS_ROUTES = {
  deployContracts: route<DeployContractsResult>()({
    method: 'POST',
    path: '/admin/v1/contracts/deploy',
    body: adminRequests.deployContracts,
    response: z.strictObject({
      chain,
      deployer: address,
      contracts: z.array(z.strictObject({ name: z.string(), address, status: z.enum(['deployed', 'already_deployed']) })).min(1),
    }),
    commands: ['contracts:deploy'],
  }),
} as const

/**
 * `prebuy devnet ...`: served by the devnet wing when the daemon runs its own chains (devnet/admin/devnet-routes.ts);
 * on real chains every path under DEVNET_PATH_PREFIX answers devnet_only (daemon/admin/refuse-devnet-routes.ts).
 */
export const DEVNET_ROUTES = {
  devnetFund: route<DevnetFundResult>()({
    method: 'POST',
    path: '/admin/v1/devnet/fund',
    body: adminRequests.devnetFund,
    response: z.strictObject({ funded: z.array(z.strictObject({ chain, address, usdc: decimal, eth: decimal })) }),
    commands: ['devnet:fund'],
  }),
  devnetMine: route<MineResult>()({
    method: 'POST',
    path: '/admin/v1/devnet/mine',
    body: adminRequests.devnetMine,
    response: z.strictObject({ chain: z.union([chain, z.literal('all')]), blocks: z.number().int(), blockNumbers: z.record(z.string(), integerString) }),
    commands: ['devnet:mine'],
  }),
  devnetDeployments: route<Deployments>()({
    method: 'GET',
    path: '/admin/v1/devnet/deployments',
    response: z.record(z.string(), z.unknown()),
    commands: ['devnet:deployments'],
  }),
  devnetLaunch: route<DevnetLaunchResult>()({
    method: 'POST',
    path: '/admin/v1/devnet/launch',
    body: adminRequests.devnetLaunch,
    response: z.strictObject({
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
      unsupported: z.string().optional(),
    }),
    commands: ['devnet:launch'],
  }),
  devnetSwap: route<DevnetSwapResult>()({
    method: 'POST',
    path: '/admin/v1/devnet/swap',
    body: adminRequests.devnetSwap,
    response: z.strictObject({
      chain,
      token: address,
      usdc: decimal,
      txHash: hex,
      blockNumber: integerString,
      tokensOut: integerString,
      feePips: z.number().int(),
    }),
    commands: ['devnet:swap'],
  }),
} as const

/** Every path under it is a devnet route: on real chains they all answer devnet_only. */
export const DEVNET_PATH_PREFIX = '/admin/v1/devnet/'

/** The admin API: one table, three servers of it (the daemon's core, its contracts deployer, the devnet wing). */
export const ADMIN_ROUTES = { ...OPERATOR_ROUTES, ...CONTRACTS_ROUTES, ...DEVNET_ROUTES }
export type AdminRouteName = keyof typeof ADMIN_ROUTES

/** The two answers that are streams, not JSON: the backup (gzip) and the console's events (server-sent events). */
export const ADMIN_STREAMS = {
  backup: { method: 'GET', path: '/admin/v1/backup' },
  events: { method: 'GET', path: '/admin/v1/events', query: adminRequests.eventsQuery },
} as const

/** A route's URL path for an input: `:id` filled in (encoded), the query's given fields appended. */
export function adminPath(route: { path: string; query?: z.ZodType }, input: { id?: string; query?: Record<string, unknown> }): string {
  let path = route.path
  if (path.includes(':id')) {
    if (input.id === undefined) throw new Error(`${route.path} needs an id`)
    path = path.replace(':id', encodeURIComponent(input.id))
  }
  const entries = Object.entries(input.query ?? {}).filter((entry) => entry[1] !== undefined)
  return entries.length === 0 ? path : `${path}?${new URLSearchParams(entries.map(([key, value]): [string, string] => [key, String(value)]))}`
}
