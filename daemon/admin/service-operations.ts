import type { Readable } from 'node:stream'
import { PrebuyError } from '../../src/common/errors.ts'
import type { ApiKeyRecord } from '../../src/domain/records.ts'
import type { DaemonStatus, IssuedKey, KeySummary } from '../../src/admin-api/contract.ts'
import type { Services } from '../../src/services/services.ts'
import { fdvAtomsOf } from '../../src/api/schemas.ts'
import { otcOfferView } from '../../src/domain/launch-methods/otc-view.ts'
import { devBuyLaunchView, withoutLaunchSalt } from '../../src/domain/launch-methods/dev-buy-view.ts'
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

  return {
    status,
    backup,
    listReviews: (kind, status) => services.reviews.list({ kind, status }),
    async approveRegistration(id, request) {
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
    async approveKeyRequest(id, request) {
      await reviewOfKind(id, 'key_request')
      const result = await services.reviews.approveKeyRequest(id, request.label === undefined ? {} : { label: request.label })
      return { review: result.review, key: issued(result.apiKey, result.key) }
    },
    async rejectReview(kind, id, note) {
      await reviewOfKind(id, kind)
      return services.reviews.reject(id, note)
    },
    listProjects: async () => (await services.projects.listAllProjects()).map(withoutLaunchSalt),
    updateProfile: (slug, update) => services.projects.updateProfile(slug, update),
    async listKeys() {
      return Promise.all((await services.keys.listKeys()).map(summary))
    },
    async revokeKey(idOrLabel) {
      const key = await keyOf(idOrLabel)
      // Its active orders are cancelled in the revocation's own batch (a revoked key's orders must not buy).
      if (key.revokedAt !== null) return { key: await summary(key), cancelledOrders: 0 }
      const { result, cancelled } = await services.orders.cancelActiveOrdersWith(key.id, (ops) => services.keys.revokeKey(key.id, ops))
      return { key: await summary(result), cancelledOrders: cancelled }
    },
    getDesk: () => services.desk.get(),
    setDesk: (update) => (update.open ? services.desk.open() : services.desk.close(update.retryAfterSeconds)),
    listBlocklist: () => services.blocklist.list(),
    addBlock: (request) => services.blocklist.add(request.type, request.value, request.note),
    async getOtc(slug) {
      const project = await services.projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      return { slug, otc: project.otc ? otcOfferView(project.otc) : null }
    },
    simulateLaunch: (slug, query) => {
      const startFdv = query.startFdvUsdc === undefined ? undefined : fdvAtomsOf(query.startFdvUsdc)
      return services.simulations.simulate(slug, 'operator', startFdv === undefined ? {} : { startFdv })
    },
    setOtc: async (slug, request) => ({ slug, otc: otcOfferView((await services.otc.setOffer(slug, 'operator', request)).project.otc!) }),
    depositOtc: async (slug) => ({ slug, otc: otcOfferView((await services.otc.deposit(slug, 'operator')).otc!) }),
    cancelOtc: async (slug) => ({ slug, otc: otcOfferView((await services.otc.cancel(slug, 'operator')).otc!) }),
    async getDevBuy(slug) {
      const project = await services.projects.getProject(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      return { slug, devBuy: project.devBuy ? devBuyLaunchView(project.devBuy) : null }
    },
    setDevBuy: async (slug, request) => ({ slug, devBuy: devBuyLaunchView((await services.devBuy.setParams(slug, 'operator', request)).devBuy!) }),
    launchDevBuy: async (slug) => ({ slug, devBuy: devBuyLaunchView((await services.devBuy.launch(slug, 'operator')).devBuy!) }),
    updateBinding: (slug, request) =>
      services.launches.updateBinding(slug, {
        ...(request.creator === undefined ? {} : { creatorAddress: request.creator }),
        ...(request.expectedToken === undefined ? {} : { expectedTokenAddress: request.expectedToken }),
        ...(request.symbol === undefined ? {} : { expectedSymbol: request.symbol }),
        ...(request.name === undefined ? {} : { expectedName: request.name }),
      }),
    deployerWarnings: (chain, deployer) => services.launches.deployerWarnings(chain, deployer),
    pendingChanges: async () =>
      (await services.ownerChanges.pending()).map((item) => ({
        slug: item.slug,
        displayName: item.displayName,
        change: pendingChangeView(item.change),
        inForce: item.inForce === null ? null : termsView(item.inForce),
        ordersBefore: item.ordersBefore,
      })),
    async confirmChange(slug, request) {
      const confirmed = await services.ownerChanges.confirm(slug, request.kind)
      return {
        slug,
        outcome: confirmed.outcome,
        pendingChange: confirmed.outcome === 'awaiting_notice' ? pendingChangeView(confirmed.change) : null,
        changes: projectChangesView(confirmed.project),
      }
    },
    rejectChange: async (slug, request) => ({ slug, changes: projectChangesView(await services.ownerChanges.reject(slug, request.reason, request.kind)) }),
    launchCandidates: (query) => services.launches.candidates(query),
    confirmLaunch: (slug, token) => services.launches.confirm(slug, token),
    executionJournal: (slug) => services.executions.journalOf(slug),
    async rotateKey(idOrLabel) {
      const rotated = await services.keys.rotateKey((await keyOf(idOrLabel)).id)
      return { key: issued(rotated.apiKey, rotated.record), rotatedAt: rotated.record.rotatedAt ?? Date.now() }
    },
    async linkSocial(idOrLabel, request) {
      const key = await keyOf(idOrLabel)
      if (key.revokedAt !== null) throw new PrebuyError('key_revoked', 'The key is revoked: its buyer no longer orders.')
      const social =
        'unlink' in request
          ? null
          : { socialId: request.socialId ?? 0, socialUsername: request.username, socialUrl: request.url, followerCount: request.followers }
      await services.buyers.setSocialProfile(key.id, social)
      return { key: await summary(key), social }
    },
    async listOrders(query) {
      if (query.project !== undefined) return services.views.ordersOfProject(query.project)
      return services.views.ordersOfKey((await keyOf(query.key!)).id)
    },
    listLaunches: () => services.views.launches(),
    getLaunch: (slug) => services.views.launch(slug),
    getProject: (slug) => services.views.project(slug),
    async removeBlock(type, value) {
      return { removed: await services.blocklist.remove(type, value) }
    },
  }
}
