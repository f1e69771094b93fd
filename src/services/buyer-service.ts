import { PrebuyError } from '../common/errors.ts'
import type { OrderRecord, SocialProfile, UserRecord } from '../domain/records.ts'
import { buyersPrefix, orderKey, spendGroupPrefix, VISIBLE_GROUP } from '../store/order-index.ts'
import { put, type Store } from '../store/open-store.ts'
import { followerCountOps } from '../store/order-writes.ts'
import { countPrefix, readAll, readIndexPage } from '../store/paginate.ts'
import { orderLockName } from './order-service.ts'

/** A buyer as GET /projects/{slug}/buyers returns it. */
export interface BuyerView {
  serviceWalletAddress: string
  socialUsername: string | null
  socialUrl: string | null
  /** 0 without a linked social profile. */
  followerCount: number
  orderStatus: OrderRecord['status']
  orderedAt: string
  /** Only for the project's owner key. */
  maxSpendUsdc?: string
  maxFdvUsdc?: string | null
}

export interface BuyerPage {
  data: BuyerView[]
  meta: { total: number; limit: number; nextCursor: string | null }
}

export interface BuyerService {
  listBuyers(slug: string, viewerKeyId: string, options: { cursor?: string | undefined; limit: number }): Promise<BuyerPage>
  /** Links (or with null unlinks) a social profile and moves the buyer in every project's follower index, atomically. */
  setSocialProfile(keyId: string, social: SocialProfile | null): Promise<UserRecord>
}

export function createBuyerService({ store }: { store: Store }): BuyerService {
  const { projects, buyersByProject, keys, users, orders } = store.sub
  return {
    async listBuyers(slug, viewerKeyId, { cursor, limit }) {
      const project = await projects.get(slug)
      if (!project) throw new PrebuyError('project_not_found', 'No project has this slug.')
      const isOwner = project.ownerKeyId !== null && project.ownerKeyId === viewerKeyId
      const prefix = buyersPrefix(slug)
      const page = await readIndexPage(buyersByProject, prefix, { cursor, limit })
      const keyIds = page.entries.map((entry) => entry.value)
      const [keyRecords, userRecords, orderRecords, total] = await Promise.all([
        keys.getMany(keyIds),
        users.getMany(keyIds),
        orders.getMany(keyIds.map((keyId) => orderKey(keyId, slug))),
        countPrefix(buyersByProject, prefix),
      ])
      const data = keyIds.map((_keyId, index): BuyerView => {
        const key = keyRecords[index]
        const order = orderRecords[index]
        if (!key || !order) throw new PrebuyError('index_without_record', 'Buyer index is inconsistent.')
        const social = userRecords[index]?.social
        const view: BuyerView = {
          serviceWalletAddress: key.walletAddress,
          socialUsername: social?.socialUsername ?? null,
          socialUrl: social?.socialUrl ?? null,
          followerCount: social?.followerCount ?? 0,
          orderStatus: order.status,
          orderedAt: new Date(order.createdAt).toISOString(),
        }
        if (isOwner) {
          view.maxSpendUsdc = order.maxSpendUsdc
          view.maxFdvUsdc = order.maxFdvUsdc
        }
        return view
      })
      return { data, meta: { total, limit, nextCursor: page.nextCursor } }
    },
    async setSocialProfile(keyId, social) {
      // The order lock keeps order writes (which index with the current follower count) out while we move entries.
      return store.mutex.run(orderLockName(keyId), async () => {
        const user = await users.get(keyId)
        if (!user) throw new PrebuyError('key_not_found', 'No key has this id.')
        const before = user.social?.followerCount ?? 0
        const after = social?.followerCount ?? 0
        const next: UserRecord = { keyId, userIndex: user.userIndex }
        if (social) next.social = social
        const slugs = before === after ? [] : (await readAll(store.sub.ordersBySpend, spendGroupPrefix(keyId, VISIBLE_GROUP))).map((e) => e.value.slug)
        await store.batch([put(users, keyId, next), ...followerCountOps(store, keyId, slugs, before, after)])
        return next
      })
    },
  }
}
