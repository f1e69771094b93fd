import type { Registry } from 'prom-client'
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify'
import {
  adminRequests,
  type AddBlockResult,
  type ApproveKeyRequestResult,
  type ApproveRegistrationResult,
  type BlockEntry,
  type DaemonStatus,
  type DeskSettings,
  type KeySummary,
  type ListResponse,
  type ProjectRecord,
  type RejectResult,
  type RemoveBlockResult,
  type ReviewItem,
  type RevokeKeyResult,
  type UpdateProfileResult,
  type ConfirmLaunchResult,
  type LaunchCandidatesResult,
  type UpdateBindingResult,
  type PendingChangeItemView,
  type ConfirmChangeResult,
  type RejectChangeResult,
  type OtcResult,
  type DevBuyResult,
  type LaunchSimulation,
  type ExecutionJournal,
  type LaunchDetail,
  type LaunchSummary,
  type LinkSocialResult,
  type OrderView,
  type ProjectDetail,
  type RotateKeyResult,
} from '../../src/admin-api/contract.ts'
import { hardenedServerOptions } from '../http/hardened-server.ts'
import { refuseWhileClosing } from '../http/refuse-while-closing.ts'
import type { Logger } from '../../src/common/logger.ts'
import { ROUTE_NOT_FOUND, sendAdminError, UNAUTHORIZED } from './admin-errors.ts'
import type { AdminOperations } from './admin-operations.ts'
import { type ContractsOperations, contractsRoutes } from './contracts-routes.ts'
import { refuseDevnetRoutes } from './refuse-devnet-routes.ts'
import { eventRoutes } from './event-routes.ts'
import type { ConsoleFeed } from '../events/console-feed.ts'
import { parseRequest } from './parse-request.ts'
import { isOperatorAuthorized } from './token-guard.ts'

export interface AdminAppDeps {
  operations: AdminOperations
  operatorToken: string
  logger: Logger
  /** Present only when the daemon runs its own devnet chains: the devnet wing registers its routes (EmbeddedDevnet.adminRoutes). */
  devnetRoutes?: (app: FastifyInstance) => void
  /** `prebuy contracts deploy` (contracts-routes.ts). */
  contracts?: ContractsOperations
  /** Served as GET /admin/v1/events (the operator console's live stream). */
  events?: ConsoleFeed
  /** Served as GET /metrics (Prometheus text format), behind the operator token like every admin route. */
  metrics?: Registry
}

/**
 * The operator's API: a separate fastify instance the daemon binds to loopback only. Every route, including unknown
 * ones, requires the operator token, so nothing about the admin surface is visible without it.
 */
export function buildAdminApp(deps: AdminAppDeps): FastifyInstance {
  const app = Fastify({
    // The public listener's handling of what no route sees, before the token check: slow clients cut off, framework
    // errors (bad URL, 431, a body shorter than its Content-Length) in the error shape without echoing the URL.
    ...hardenedServerOptions(),
    loggerInstance: deps.logger.child({ component: 'admin-api' }) as FastifyBaseLogger,
    bodyLimit: 64 * 1024,
    return503OnClosing: false,
  }) as unknown as FastifyInstance
  refuseWhileClosing(app)
  const { operations } = deps

  app.addHook('onRequest', async (request, reply) => {
    if (!isOperatorAuthorized(request.headers.authorization, deps.operatorToken)) {
      return reply.code(401).send(UNAUTHORIZED)
    }
  })

  app.setNotFoundHandler((_request, reply) => reply.code(404).send(ROUTE_NOT_FOUND))
  app.setErrorHandler((error: FastifyError, request, reply) => sendAdminError(reply, error, request.log))

  const id = (request: FastifyRequest): string => parseRequest(adminRequests.idParams, request.params).id

  app.get('/admin/v1/status', async (): Promise<DaemonStatus> => operations.status())
  const { metrics } = deps
  app.get('/admin/v1/backup', async (_request, reply) =>
    reply.type('application/gzip').header('content-disposition', 'attachment; filename="prebuy-backup.jsonl.gz"').send(operations.backup()),
  )
  if (metrics) app.get('/metrics', async (_request, reply) => reply.type(metrics.contentType).send(await metrics.metrics()))

  app.get('/admin/v1/reviews', async (request): Promise<ListResponse<ReviewItem>> => {
    const query = parseRequest(adminRequests.reviewsQuery, request.query)
    return { items: await operations.listReviews(query.kind, query.status) }
  })
  app.post(
    '/admin/v1/registrations/:id/approve',
    async (request): Promise<ApproveRegistrationResult> =>
      operations.approveRegistration(id(request), parseRequest(adminRequests.approveRegistration, request.body)),
  )
  app.post(
    '/admin/v1/registrations/:id/reject',
    async (request): Promise<RejectResult> => ({
      review: await operations.rejectReview('registration', id(request), parseRequest(adminRequests.reject, request.body).note),
    }),
  )
  app.post(
    '/admin/v1/key-requests/:id/approve',
    async (request): Promise<ApproveKeyRequestResult> => operations.approveKeyRequest(id(request), parseRequest(adminRequests.approveKeyRequest, request.body)),
  )
  app.post(
    '/admin/v1/key-requests/:id/reject',
    async (request): Promise<RejectResult> => ({
      review: await operations.rejectReview('key_request', id(request), parseRequest(adminRequests.reject, request.body).note),
    }),
  )

  app.get('/admin/v1/projects', async (): Promise<ListResponse<ProjectRecord>> => ({ items: await operations.listProjects() }))
  app.get('/admin/v1/projects/:id', async (request): Promise<ProjectDetail> => operations.getProject(id(request)))
  app.patch(
    '/admin/v1/projects/:id',
    async (request): Promise<UpdateProfileResult> => ({
      project: await operations.updateProfile(id(request), parseRequest(adminRequests.profileUpdate, request.body)),
    }),
  )

  app.get('/admin/v1/projects/:id/otc', async (request): Promise<OtcResult> => operations.getOtc(id(request)))
  app.get(
    '/admin/v1/projects/:id/simulation',
    async (request): Promise<LaunchSimulation> => operations.simulateLaunch(id(request), parseRequest(adminRequests.simulationQuery, request.query)),
  )
  app.patch(
    '/admin/v1/projects/:id/otc',
    async (request): Promise<OtcResult> => operations.setOtc(id(request), parseRequest(adminRequests.otcOffer, request.body)),
  )
  app.post('/admin/v1/projects/:id/otc/deposit', async (request): Promise<OtcResult> => operations.depositOtc(id(request)))
  app.delete('/admin/v1/projects/:id/otc', async (request): Promise<OtcResult> => operations.cancelOtc(id(request)))
  app.get('/admin/v1/projects/:id/dev-buy', async (request): Promise<DevBuyResult> => operations.getDevBuy(id(request)))
  app.patch(
    '/admin/v1/projects/:id/dev-buy',
    async (request): Promise<DevBuyResult> => operations.setDevBuy(id(request), parseRequest(adminRequests.devBuyParams, request.body)),
  )
  app.post('/admin/v1/projects/:id/dev-buy/launch', async (request): Promise<DevBuyResult> => operations.launchDevBuy(id(request)))
  app.patch('/admin/v1/projects/:id/binding', async (request): Promise<UpdateBindingResult> => {
    const body = parseRequest(adminRequests.projectBinding, request.body)
    const project = await operations.updateBinding(id(request), body)
    // A newly registered deployer gets the same warnings as at approval.
    return { project, deployerWarnings: body.creator === undefined ? [] : await operations.deployerWarnings(project.chain, body.creator) }
  })
  app.get('/admin/v1/owner-changes', async (): Promise<ListResponse<PendingChangeItemView>> => ({ items: await operations.pendingChanges() }))
  app.post(
    '/admin/v1/projects/:id/changes/confirm',
    async (request): Promise<ConfirmChangeResult> => operations.confirmChange(id(request), parseRequest(adminRequests.confirmChange, request.body ?? {})),
  )
  app.post(
    '/admin/v1/projects/:id/changes/reject',
    async (request): Promise<RejectChangeResult> => operations.rejectChange(id(request), parseRequest(adminRequests.rejectChange, request.body)),
  )
  app.get(
    '/admin/v1/launches/candidates',
    async (request): Promise<LaunchCandidatesResult> => operations.launchCandidates(parseRequest(adminRequests.launchCandidatesQuery, request.query)),
  )
  app.get('/admin/v1/launches/:id', async (request): Promise<LaunchDetail> => operations.getLaunch(id(request)))
  app.get('/admin/v1/launches/:id/journal', async (request): Promise<ExecutionJournal> => operations.executionJournal(id(request)))
  app.post(
    '/admin/v1/launches/:id/confirm',
    async (request): Promise<ConfirmLaunchResult> => ({
      candidate: await operations.confirmLaunch(id(request), parseRequest(adminRequests.confirmLaunch, request.body).token),
    }),
  )

  app.get('/admin/v1/keys', async (): Promise<ListResponse<KeySummary>> => ({ items: await operations.listKeys() }))
  app.post('/admin/v1/keys/:id/revoke', async (request): Promise<RevokeKeyResult> => operations.revokeKey(id(request)))
  app.post('/admin/v1/keys/:id/rotate', async (request): Promise<RotateKeyResult> => operations.rotateKey(id(request)))
  app.put(
    '/admin/v1/keys/:id/social',
    async (request): Promise<LinkSocialResult> => operations.linkSocial(id(request), parseRequest(adminRequests.linkSocial, request.body)),
  )
  app.get(
    '/admin/v1/orders',
    async (request): Promise<ListResponse<OrderView>> => ({ items: await operations.listOrders(parseRequest(adminRequests.ordersQuery, request.query)) }),
  )
  app.get('/admin/v1/launches', async (): Promise<ListResponse<LaunchSummary>> => ({ items: await operations.listLaunches() }))

  app.get('/admin/v1/desk', async (): Promise<DeskSettings> => operations.getDesk())
  app.put('/admin/v1/desk', async (request): Promise<DeskSettings> => operations.setDesk(parseRequest(adminRequests.deskUpdate, request.body)))

  app.get('/admin/v1/blocklist', async (): Promise<ListResponse<BlockEntry>> => ({ items: await operations.listBlocklist() }))
  app.post(
    '/admin/v1/blocklist',
    async (request): Promise<AddBlockResult> => ({
      entry: await operations.addBlock(parseRequest(adminRequests.block, request.body)),
    }),
  )
  app.delete('/admin/v1/blocklist', async (request): Promise<RemoveBlockResult> => {
    const body = parseRequest(adminRequests.unblock, request.body)
    return operations.removeBlock(body.type, body.value)
  })

  if (deps.devnetRoutes) deps.devnetRoutes(app)
  else refuseDevnetRoutes(app)
  if (deps.contracts) contractsRoutes(app, deps.contracts)
  if (deps.events) eventRoutes(app, deps.events)

  return app
}
