import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance } from 'fastify'
import { z } from 'zod'
import { CHAIN_KEYS } from '../../src/chain/chain-keys.ts'
import { addressSchema, slugSchema } from '../../src/common/schemas.ts'
import { refuseWhileClosing } from '../http/refuse-while-closing.ts'
import type { Logger } from '../../src/common/logger.ts'
import { BLOCK_TYPES, LAUNCH_METHODS, LAUNCHPADS, REVIEW_KINDS, REVIEW_STATUSES } from '../../src/domain/records.ts'
import type { ProfileUpdate } from '../../src/admin-client/admin-types.ts'
import { ROUTE_NOT_FOUND, sendAdminError, UNAUTHORIZED } from './admin-errors.ts'
import type { AdminOperations } from './admin-operations.ts'
import type { DevnetOperations } from './devnet-operations.ts'
import { devnetRoutes } from './devnet-routes.ts'
import { parseRequest } from './parse-request.ts'
import { isOperatorAuthorized } from './token-guard.ts'

export interface AdminAppDeps {
  operations: AdminOperations
  operatorToken: string
  logger: Logger
  /** Present only when the daemon runs its own devnet chains (see devnet-routes.ts). */
  devnet?: DevnetOperations
}

const idParams = z.object({ id: z.string().min(1) })
const httpUrl = z.url({ protocol: /^https?$/, error: 'expected an http or https URL' })

const schemas = {
  reviewsQuery: z.object({ kind: z.enum(REVIEW_KINDS), status: z.enum(REVIEW_STATUSES).optional() }),
  approveRegistration: z.strictObject({
    slug: slugSchema,
    creator: addressSchema,
    launchpad: z.enum(LAUNCHPADS),
    chain: z.enum(CHAIN_KEYS),
    method: z.enum(LAUNCH_METHODS).optional(),
    label: z.string().min(1).max(100).optional(),
  }),
  approveKeyRequest: z.strictObject({ label: z.string().min(1).max(100).optional() }),
  reject: z.strictObject({ note: z.string().min(1).max(500).optional() }),
  desk: z.strictObject({ open: z.boolean(), retryAfterSeconds: z.number().int().min(1).max(86_400).optional() }),
  block: z.strictObject({ type: z.enum(BLOCK_TYPES), value: z.string().trim().min(1).max(200), note: z.string().max(500).optional() }),
  unblock: z.strictObject({ type: z.enum(BLOCK_TYPES), value: z.string().trim().min(1).max(200) }),
  profile: z
    .strictObject({
      identity: z
        .strictObject({
          displayName: z.string().min(1).max(100).optional(),
          socialId: z.number().int().min(0).optional(),
          microblogHandle: z.string().min(1).max(100).nullable().optional(),
          socialUsername: z.string().max(100).optional(),
        })
        .optional(),
      content: z
        .strictObject({
          bannerImageUrl: httpUrl.optional(),
          pfpUrl: httpUrl.optional(),
          bio: z.array(z.string().min(1).max(2000)).max(20).optional(),
          websiteUrl: httpUrl.optional(),
          teamMembers: z
            .array(
              z.strictObject({
                name: z.string().min(1).max(100),
                pfpUrl: httpUrl,
                followerCount: z.number().int().min(0),
                socialUrl: httpUrl,
                roles: z.array(z.strictObject({ projectName: z.string().min(1).max(100), title: z.string().min(1).max(100) })).max(10),
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
}

/**
 * The operator's API: a separate fastify instance the daemon binds to loopback only. Every route, including unknown
 * ones, requires the operator token, so nothing about the admin surface is visible without it.
 */
export function buildAdminApp(deps: AdminAppDeps): FastifyInstance {
  const app = Fastify({
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

  app.get('/admin/v1/status', async () => operations.status())

  app.get('/admin/v1/reviews', async (request) => {
    const query = parseRequest(schemas.reviewsQuery, request.query)
    return { items: await operations.listReviews(query.kind, query.status) }
  })
  app.post('/admin/v1/registrations/:id/approve', async (request) => {
    const { id } = parseRequest(idParams, request.params)
    return operations.approveRegistration(id, parseRequest(schemas.approveRegistration, request.body))
  })
  app.post('/admin/v1/registrations/:id/reject', async (request) => {
    const { id } = parseRequest(idParams, request.params)
    return { review: await operations.rejectReview('registration', id, parseRequest(schemas.reject, request.body).note) }
  })
  app.post('/admin/v1/key-requests/:id/approve', async (request) => {
    const { id } = parseRequest(idParams, request.params)
    return operations.approveKeyRequest(id, parseRequest(schemas.approveKeyRequest, request.body))
  })
  app.post('/admin/v1/key-requests/:id/reject', async (request) => {
    const { id } = parseRequest(idParams, request.params)
    return { review: await operations.rejectReview('key_request', id, parseRequest(schemas.reject, request.body).note) }
  })

  app.get('/admin/v1/projects', async () => ({ items: await operations.listProjects() }))
  app.patch('/admin/v1/projects/:id', async (request) => {
    const { id } = parseRequest(idParams, request.params)
    return { project: await operations.updateProfile(id, parseRequest(schemas.profile, request.body) as ProfileUpdate) }
  })

  app.get('/admin/v1/keys', async () => ({ items: await operations.listKeys() }))
  app.post('/admin/v1/keys/:id/revoke', async (request) => ({ key: await operations.revokeKey(parseRequest(idParams, request.params).id) }))

  app.get('/admin/v1/desk', async () => operations.getDesk())
  app.put('/admin/v1/desk', async (request) => operations.setDesk(parseRequest(schemas.desk, request.body)))

  app.get('/admin/v1/blocklist', async () => ({ items: await operations.listBlocklist() }))
  app.post('/admin/v1/blocklist', async (request) => ({ entry: await operations.addBlock(parseRequest(schemas.block, request.body)) }))
  app.delete('/admin/v1/blocklist', async (request) => {
    const body = parseRequest(schemas.unblock, request.body)
    return operations.removeBlock(body.type, body.value)
  })

  devnetRoutes(app, deps.devnet)

  return app
}
