import type { Readable } from 'node:stream'
import { PrebuyError } from '../../src/common/errors.ts'
import type { ApiKeyRecord } from '../../src/domain/records.ts'
import type { DaemonStatus, IssuedKey, KeySummary } from '../../src/admin-api/contract.ts'
import type { Services } from '../../src/services/services.ts'
import { fdvAtomsOf } from '../../src/api/schemas.ts'
import { otcOfferView } from '../../src/launch-methods/pooled-otc/domain/otc-view.ts'
import { devBuyLaunchView, withoutLaunchSalt } from '../../src/launch-methods/dev-buy/domain/dev-buy-view.ts'
import { pendingChangeView, projectChangesView, termsView } from '../../src/domain/owner-change-view.ts'
import type { AdminOperations } from './admin-operations.ts'

export interface ServiceOperationsDeps {
  services: Services
  status(): Promise<DaemonStatus>
  backup(): Readable
}

const issued = (apiKey: string, key: ApiKeyRecord): IssuedKey => ({
  apiKey,
  keyId: key.id,
  label: key.label,
  serviceWalletAddress: key.walletAddress,
})

/** The admin API's operations, implemented by the same service instances the public API uses. */
export function createServiceOperations({ services, status, backup }: ServiceOperationsDeps): AdminOperations {
  const summary = async (key: ApiKeyRecord): Promise<KeySummary> => ({
    keyId: key.id,
    label: key.label,
    serviceWalletAddress: key.walletAddress,
    createdAt: key.createdAt,
    revokedAt: key.revokedAt,
    ownedProjectSlugs: await services.projects.ownedSlugs(key.id),
  })

  /** A key by its id or, failing that, its label. */
  const keyOf = async (idOrLabel: string): Promise<ApiKeyRecord> => {
    const key = (await services.keys.getKey(idOrLabel)) ?? (await services.keys.listKeys()).find((candidate) => candidate.label === idOrLabel)
    if (!key) throw new PrebuyError('key_not_found', `no key with id or label ${idOrLabel}`)
    return key
  }

  /** Reviews of one kind only: approving a feedback item as a registration must be a 404, not a surprise. */
  const reviewOfKind = async (id: string, kind: 'registration' | 'key_request') => {
    const review = await services.reviews.get(id)
    if (!review || review.kind !== kind) {
      throw new PrebuyError('review_not_found', `no ${kind === 'registration' ? 'registration' : 'key request'} with id ${id}`)
    }
    return review
  }

  const rejectReview = async (kind: 'registration' | 'key_request', id: string, note: string | undefined) => {
    await reviewOfKind(id, kind)
    return { review: await services.reviews.reject(id, note) }
  }

  return {
    status: () => status(),
    backup,
    listReviews: async ({ query }) => ({ items: await services.reviews.list({ kind: query.kind, status: query.status }) }),
    async approveRegistration({ id, body: request }) {
      await reviewOfKind(id, 'registration')
      const result = await services.reviews.approveRegistration(id, {
        slug: request.slug,
        creatorAddress: request.creator,
        ...(request.expectedToken === undefined ? {} : { expectedTokenAddress: request.expectedToken }),
        ...(request.symbol === undefined ? {} : { expectedSymbol: request.symbol }),
        ...(request.name === undefined ? {} : { expectedName: request.name }),
        launchpad: request.launchpad,
        chain: request.chain,
        ...(request.method === undefined ? {} : { launchMethod: request.method }),
        ...(request.label === undefined ? {} : { label: request.label }),
      })
      const deployerWarnings = await services.launches.deployerWarnings(request.chain, request.creator)
      return { review: result.review, project: result.project, key: issued(result.apiKey, result.key), deployerWarnings }
    },
    rejectRegistration: ({ id, body }) => rejectReview('registration', id, body.note),
    async approveKeyRequest({ id, body: request }) {
      await reviewOfKind(id, 'key_request')
      const result = await services.reviews.approveKeyRequest(id, request.label === undefined ? {} : { label: request.label })
      return { review: result.review, key: issued(result.apiKey, result.key) }
    },
    rejectKeyRequest: ({ id, body }) => rejectReview('key_request', id, body.note),
    listProjects: async () => ({ items: (await services.projects.listAllProjects()).map(withoutLaunchSalt) }),
    getProject: ({ id: slug }) => services.views.project(slug),
    updateProfile: async ({ id: slug, body }) => ({ project: await services.projects.updateProfile(slug, body) }),
    async updateBinding({ id: slug, body: request }) {
      const project = await services.launches.updateBinding(slug, {
        ...(request.creator === undefined ? {} : { creatorAddress: request.creator }),
        ...(request.expectedToken === undefined ? {} : { expectedTokenAddress: request.expectedToken }),
        ...(request.symbol === undefined ? {} : { expectedSymbol: request.symbol }),
        ...(request.name === undefined ? {} : { expectedName: request.name }),
      })
      // A newly registered deployer gets the same warnings as at approval.
      return { project, deployerWarnings: request.creator === undefined ? [] : await services.launches.deployerWarnings(project.chain, request.creator) }
    },
    async getOtc({ id: slug }) {
      const project = await services.projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      return { slug, otc: project.otc ? otcOfferView(project.otc) : null }
    },
    setOtc: async ({ id: slug, body }) => ({ slug, otc: otcOfferView((await services.otc.setOffer(slug, 'operator', body)).project.otc!) }),
    depositOtc: async ({ id: slug }) => ({ slug, otc: otcOfferView((await services.otc.deposit(slug, 'operator')).otc!) }),
    cancelOtc: async ({ id: slug }) => ({ slug, otc: otcOfferView((await services.otc.cancel(slug, 'operator')).otc!) }),
    async getDevBuy({ id: slug }) {
      const project = await services.projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      return { slug, devBuy: project.devBuy ? devBuyLaunchView(project.devBuy) : null }
    },
    setDevBuy: async ({ id: slug, body }) => ({ slug, devBuy: devBuyLaunchView((await services.devBuy.setParams(slug, 'operator', body)).devBuy!) }),
    launchDevBuy: async ({ id: slug }) => ({ slug, devBuy: devBuyLaunchView((await services.devBuy.launch(slug, 'operator')).devBuy!) }),
    simulateLaunch: ({ id: slug, query }) => {
      const startFdv = query.startFdvUsdc === undefined ? undefined : fdvAtomsOf(query.startFdvUsdc)
      return services.simulations.simulate(slug, 'operator', startFdv === undefined ? {} : { startFdv })
    },
    pendingChanges: async () => ({
      items: (await services.ownerChanges.pending()).map((item) => ({
        slug: item.slug,
        displayName: item.displayName,
        change: pendingChangeView(item.change),
        inForce: item.inForce === null ? null : termsView(item.inForce),
        ordersBefore: item.ordersBefore,
      })),
    }),
    async confirmChange({ id: slug, body }) {
      const confirmed = await services.ownerChanges.confirm(slug, body.kind)
      return {
        slug,
        outcome: confirmed.outcome,
        pendingChange: confirmed.outcome === 'awaiting_notice' ? pendingChangeView(confirmed.change) : null,
        changes: projectChangesView(confirmed.project),
      }
    },
    rejectChange: async ({ id: slug, body }) => ({ slug, changes: projectChangesView(await services.ownerChanges.reject(slug, body.reason, body.kind)) }),
    listLaunches: async () => ({ items: await services.views.launches() }),
    launchCandidates: ({ query }) => services.launches.candidates(query),
    getLaunch: ({ id: slug }) => services.views.launch(slug),
    confirmLaunch: async ({ id: slug, body }) => ({ candidate: await services.launches.confirm(slug, body.token) }),
    executionJournal: ({ id: slug }) => services.executions.journalOf(slug),
    listKeys: async () => ({ items: await Promise.all((await services.keys.listKeys()).map(summary)) }),
    async revokeKey({ id: idOrLabel }) {
      const key = await keyOf(idOrLabel)
      // Its active orders are cancelled in the revocation's own batch (a revoked key's orders must not buy).
      if (key.revokedAt !== null) return { key: await summary(key), cancelledOrders: 0 }
      const { result, cancelled } = await services.orders.cancelActiveOrdersWith(key.id, (ops) => services.keys.revokeKey(key.id, ops))
      return { key: await summary(result), cancelledOrders: cancelled }
    },
    async rotateKey({ id: idOrLabel }) {
      const rotated = await services.keys.rotateKey((await keyOf(idOrLabel)).id)
      return { key: issued(rotated.apiKey, rotated.record), rotatedAt: rotated.record.rotatedAt ?? Date.now() }
    },
    async linkSocial({ id: idOrLabel, body: request }) {
      const key = await keyOf(idOrLabel)
      if (key.revokedAt !== null) throw new PrebuyError('key_revoked', 'The key is revoked: its buyer no longer orders.')
      const social =
        'unlink' in request
          ? null
          : { socialId: request.socialId ?? 0, socialUsername: request.username, socialUrl: request.url, followerCount: request.followers }
      await services.buyers.setSocialProfile(key.id, social)
      return { key: await summary(key), social }
    },
    async listOrders({ query }) {
      if (query.project !== undefined) return { items: await services.views.ordersOfProject(query.project) }
      return { items: await services.views.ordersOfKey((await keyOf(query.key!)).id) }
    },
    getDesk: () => services.desk.get(),
    setDesk: ({ body: update }) => (update.open ? services.desk.open() : services.desk.close(update.retryAfterSeconds)),
    listBlocklist: async () => ({ items: await services.blocklist.list() }),
    addBlock: async ({ body }) => ({ entry: await services.blocklist.add(body.type, body.value, body.note) }),
    removeBlock: async ({ body }) => ({ removed: await services.blocklist.remove(body.type, body.value) }),
  }
}
