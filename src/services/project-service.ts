import { normalizeTokenText } from '../domain/launches/judge-launch.ts'
import { projectChangesView, type ProjectChangesView } from '../domain/owner-change-view.ts'
import { getAddress } from 'viem'
import { CHAIN_KEYS, type ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { committedStats, depthByPriceLimit, filledStats, fundedSpend, publicAmount, type DepthLevel } from '../domain/project-stats.ts'
import type { LaunchMethod, Launchpad, OrderRecord, ProjectProfile, ProjectRecord, RegistrationSubmission } from '../domain/records.ts'
import { isValidSlug, SLUG_PATTERN } from '../domain/slug.ts'
import { countPrefix, readAll, readIndexPage } from '../store/paginate.ts'
import { buyersPrefix, orderKey, projectStatusPrefix } from '../store/order-index.ts'
import type { Store, StoreOperation } from '../store/open-store.ts'
import { projectsIn } from '../store/project-index.ts'
import { projectWriteOps } from '../store/project-writes.ts'
import type { TokenInfo, WalletService } from '../wallets/wallet-service.ts'
import type { Clock } from './clock.ts'
import { otcOfferView, type OtcOfferView } from '../launch-methods/pooled-otc/domain/otc-view.ts'
import { devBuyLaunchView, type DevBuyLaunchView } from '../launch-methods/dev-buy/domain/dev-buy-view.ts'

/** The symbol and name recorded at approval, normalised as judge-launch.ts compares them (a name only with a symbol). */
function recordedTokenText(input: Pick<NewProject, 'expectedSymbol' | 'expectedName'>): Pick<ProjectRecord, 'expectedSymbol' | 'expectedName'> {
  const symbol = input.expectedSymbol ? normalizeTokenText(input.expectedSymbol) : ''
  const name = input.expectedName ? normalizeTokenText(input.expectedName) : ''
  if (name !== '' && symbol === '') throw new PrebuyError('invalid_token_text', 'A token name is recorded with its symbol: give the symbol too.')
  return symbol === '' ? {} : { expectedSymbol: symbol, expectedName: name === '' ? null : name }
}

export interface NewProject {
  slug: string
  creatorAddress: string
  /** The token address recorded before launch, if known at approval. */
  expectedTokenAddress?: string | null
  /** The token symbol (and name) announced: the binding's second fact with the deployer (judge-launch.ts). */
  expectedSymbol?: string | null
  expectedName?: string | null
  launchpad: Launchpad
  chain: ChainKey
  launchMethod: LaunchMethod
  ownerKeyId: string | null
  registrationId?: string | null
  /** Full or partial profile; missing parts come from the registration (or are empty). */
  profile?: ProfilePatch
}

export type ProfilePatch = {
  identity?: Partial<Omit<ProjectProfile['identity'], 'slug'>>
  content?: Partial<ProjectProfile['content']>
  status?: Partial<ProjectProfile['status']>
}

export interface ProjectPage {
  data: ProjectProfile[]
  meta: { total: number; limit: number; nextCursor: string | null }
}

export interface ProjectStats {
  /** Live orders: active or executing. */
  orderCount: number
  committedSpendUsdc: string
  /**
   * min(order spend, wallet stablecoin balance on the project's chain), summed over live orders; cached briefly.
   * null when the balances cannot be read right now (a chain outage must not take the project page down).
   */
  fundedSpendUsdc: string | null
  /** Orders filled at launch and the stablecoin they spent. */
  filledOrderCount: number
  filledSpendUsdc: string
}

export interface OwnerStats {
  buyersCount: number
  depthByPriceLimit: DepthLevel[]
  /** The token address the owner (or the operator) recorded as expected at launch; null when none. */
  expectedTokenAddress: string | null
}

export interface ProjectDetail extends ProjectProfile {
  project: { launchpad: Launchpad; chain: ChainKey; launchMethod: LaunchMethod; creatorAddress: string }
  launch: { status: 'pending' | 'launched'; chain: ChainKey; tokenAddress: string | null; launchedAt: string | null }
  stats: ProjectStats
  /** A pooled_otc project's offer (terms, deposit, settlement); null for other projects and before the owner sets it. */
  otc: OtcOfferView | null
  /** A dev_buy project's launch (parameters, request, outcome); null for other projects and before the owner sets it. */
  devBuy: DevBuyLaunchView | null
  /** Changes of what the orders buy: pending ones (with their times) and the history (docs/owner-changes.md). */
  changes: ProjectChangesView
  /** Present only when the calling key owns the project. */
  ownerStats?: OwnerStats
}

export interface ProjectService {
  /** Record and index operations for a new project; the slug must be free. Caller holds PROJECT_LOCK. */
  prepareProject(input: NewProject, registration?: RegistrationSubmission): Promise<{ record: ProjectRecord; ops: StoreOperation[] }>
  createProject(input: NewProject, registration?: RegistrationSubmission): Promise<ProjectRecord>
  updateProfile(slug: string, patch: ProfilePatch): Promise<ProjectRecord>
  getProject(slug: string): Promise<ProjectRecord | undefined>
  listProjects(options: { cursor?: string | undefined; limit: number }): Promise<ProjectPage>
  listAllProjects(): Promise<ProjectRecord[]>
  ownedSlugs(keyId: string): Promise<string[]>
  projectDetail(slug: string, viewerKeyId: string): Promise<ProjectDetail>
  /** Orders of a project in the given states (the executor asks for 'active'). */
  ordersOfProject(slug: string, statuses: ReadonlyArray<OrderRecord['status']>): Promise<OrderRecord[]>
  /** Tokens of launched projects per chain, for wallet balance listings. */
  indexedTokens(): Promise<Record<ChainKey, TokenInfo[]>>
}

export interface ProjectServiceDeps {
  store: Store
  wallets: WalletService
  now: Clock
  /** How long funded spend is cached per project (ms). */
  fundedCacheMs?: number
}

export const PROJECT_LOCK = 'projects'

/**
 * Every launchpad we support charges a decaying launch fee, so launches are sniper-protected. Clanker v5's sniper fee
 * is optional (the creator turns it on: clanker-devco/DOCS general/token-deployments.md): not protected by default.
 */
const SNIPER_PROTECTED: Record<Launchpad, boolean> = { clanker: true, doppler: true, zora: true, clanker_v5: false }

function profileFrom(input: NewProject, registration: RegistrationSubmission | undefined): ProjectProfile {
  // The first URL (projectUrls also holds social handles such as @moon, which are no website).
  const websiteUrl = registration?.projectUrls.find((url) => /^https?:\/\//i.test(url)) ?? ''
  const bio = registration
    ? registration.projectInfo
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
    : []
  const base: ProjectProfile = {
    identity: {
      slug: input.slug,
      displayName: registration?.projectName ?? input.slug,
      socialId: 0,
      microblogHandle: null,
      socialUsername: '',
    },
    content: { bannerImageUrl: '', pfpUrl: '', bio, websiteUrl, teamMembers: [] },
    status: { isProfileRegistered: true, isLaunchVerified: true, hasSniperProtection: SNIPER_PROTECTED[input.launchpad] },
  }
  return applyPatch(base, input.profile ?? {})
}

function applyPatch(profile: ProjectProfile, patch: ProfilePatch): ProjectProfile {
  return {
    identity: { ...profile.identity, ...patch.identity, slug: profile.identity.slug },
    content: { ...profile.content, ...patch.content },
    status: { ...profile.status, ...patch.status },
  }
}

/** The stats anyone with a key sees: counts exact, spend sums rounded down (publicAmount). */
function publicStats(committed: ReturnType<typeof committedStats>, funded: string | null, filled: ReturnType<typeof filledStats>) {
  return {
    orderCount: committed.orderCount,
    committedSpendUsdc: publicAmount(committed.committedSpendUsdc),
    fundedSpendUsdc: funded === null ? null : publicAmount(funded),
    filledOrderCount: filled.filledOrderCount,
    filledSpendUsdc: publicAmount(filled.filledSpendUsdc),
  }
}

export function createProjectService({ store, wallets, now, fundedCacheMs = 15_000 }: ProjectServiceDeps): ProjectService {
  const { projects, projectsByOwner, orders, ordersByProject } = store.sub
  const fundedCache = new Map<string, { at: number; value: string }>()

  async function mustGet(slug: string): Promise<ProjectRecord> {
    const record = await projects.get(slug)
    if (!record) throw new PrebuyError('project_not_found', 'No project has this slug.')
    return record
  }

  async function prepareProject(input: NewProject, registration?: RegistrationSubmission) {
    if (!isValidSlug(input.slug)) {
      throw new PrebuyError('invalid_slug', 'slug must be 1 to 64 lower-case letters, digits or dashes')
    }
    if ((await projects.get(input.slug)) !== undefined) {
      throw new PrebuyError('slug_taken', 'A project with this slug already exists.')
    }
    // A dev buy deploys through Clanker's factory and its DevBuy extension (docs/launch-methods.md): on another launchpad
    // the project could never launch the way it announced.
    if (input.launchMethod === 'dev_buy' && input.launchpad !== 'clanker') {
      throw new PrebuyError(
        'launch_method_unsupported',
        `The dev_buy launch method deploys through Clanker only, not ${input.launchpad}: approve the project with launchpad clanker, or as open_market.`,
      )
    }
    const nowMs = now()
    const record: ProjectRecord = {
      slug: input.slug,
      profile: profileFrom(input, registration),
      creatorAddress: input.creatorAddress,
      expectedTokenAddress: input.expectedTokenAddress ? getAddress(input.expectedTokenAddress) : null,
      ...recordedTokenText(input),
      launchpad: input.launchpad,
      chain: input.chain,
      launchMethod: input.launchMethod,
      ownerKeyId: input.ownerKeyId,
      status: 'approved',
      registrationId: input.registrationId ?? null,
      launch: null,
      createdAt: nowMs,
      updatedAt: nowMs,
    }
    return { record, ops: projectWriteOps(store, undefined, record) }
  }

  async function ordersOfProject(slug: string, statuses: ReadonlyArray<OrderRecord['status']>): Promise<OrderRecord[]> {
    const keyIds: string[] = []
    for (const status of statuses) {
      for (const entry of await readAll(ordersByProject, projectStatusPrefix(slug, status))) keyIds.push(entry.value)
    }
    if (keyIds.length === 0) return []
    const found = await orders.getMany(keyIds.map((keyId) => orderKey(keyId, slug)))
    return found.filter((order): order is OrderRecord => order !== undefined)
  }

  async function computeFunded(project: ProjectRecord, live: OrderRecord[]): Promise<string | null> {
    const cached = fundedCache.get(project.slug)
    if (cached && now() - cached.at < fundedCacheMs) return cached.value
    try {
      return await readFunded(project, live)
    } catch {
      return null
    }
  }

  async function readFunded(project: ProjectRecord, live: OrderRecord[]): Promise<string> {
    const keys = (await store.sub.keys.getMany(live.map((order) => order.keyId))).filter((key) => key !== undefined)
    // One multicall for every buyer's wallet on the project's chain (a read per buyer made a popular project's page
    // take seconds to compute under load).
    const byIndex = await wallets.stablecoinBalances(project.chain, [...new Set(keys.map((key) => key.userIndex))])
    const balances = new Map(keys.map((key) => [key.id, byIndex.get(key.userIndex) ?? 0n]))
    const value = fundedSpend(live, balances)
    fundedCache.set(project.slug, { at: now(), value })
    return value
  }

  return {
    prepareProject,
    async createProject(input, registration) {
      return store.mutex.run(PROJECT_LOCK, async () => {
        const { record, ops } = await prepareProject(input, registration)
        await store.batch(ops)
        return record
      })
    },
    async updateProfile(slug, patch) {
      return store.mutex.run(PROJECT_LOCK, async () => {
        const record = await mustGet(slug)
        const next = { ...record, profile: applyPatch(record.profile, patch), updatedAt: now() }
        await store.batch(projectWriteOps(store, record, next))
        return next
      })
    },
    getProject: (slug) => projects.get(slug),
    async listProjects({ cursor, limit }) {
      // Projects are keyed by slug: a cursor must name one.
      const page = await readIndexPage(projects, '', { cursor, limit, keyPattern: SLUG_PATTERN })
      return {
        data: page.entries.map((entry) => entry.value.profile),
        meta: { total: await countPrefix(projects, ''), limit, nextCursor: page.nextCursor },
      }
    },
    async listAllProjects() {
      return (await readAll(projects, '')).map((entry) => entry.value)
    },
    async ownedSlugs(keyId) {
      return (await readAll(projectsByOwner, `${keyId}!`)).map((entry) => entry.value)
    },
    ordersOfProject,
    async projectDetail(slug, viewerKeyId) {
      const project = await mustGet(slug)
      const live = await ordersOfProject(slug, ['active', 'executing'])
      const committed = committedStats(live)
      const filled = filledStats(await ordersOfProject(slug, ['filled']))
      const detail: ProjectDetail = {
        ...project.profile,
        project: {
          launchpad: project.launchpad,
          chain: project.chain,
          launchMethod: project.launchMethod,
          creatorAddress: project.creatorAddress,
        },
        launch: {
          status: project.launch ? 'launched' : 'pending',
          chain: project.launch?.chain ?? project.chain,
          tokenAddress: project.launch?.tokenAddress ?? null,
          launchedAt: project.launch ? new Date(project.launch.launchedAt).toISOString() : null,
        },
        // Spend sums are public rounded (publicAmount): exact ones would reveal a new buyer's owner-only spend cap.
        stats: publicStats(committed, await computeFunded(project, live), filled),
        otc: project.otc ? otcOfferView(project.otc) : null,
        devBuy: project.devBuy ? devBuyLaunchView(project.devBuy) : null,
        changes: projectChangesView(project),
      }
      if (project.ownerKeyId !== null && project.ownerKeyId === viewerKeyId) {
        const buyersCount = await countPrefix(store.sub.buyersByProject, buyersPrefix(slug))
        detail.ownerStats = { buyersCount, depthByPriceLimit: depthByPriceLimit(live), expectedTokenAddress: project.expectedTokenAddress ?? null }
      }
      return detail
    },
    async indexedTokens() {
      const out: Record<ChainKey, TokenInfo[]> = { base: [], second_chain: [] }
      for (const chain of CHAIN_KEYS) {
        for (const { launch } of await projectsIn(store, chain, 'launched')) {
          if (!launch) continue
          out[chain].push({ address: launch.tokenAddress as TokenInfo['address'], symbol: launch.symbol, name: launch.name, decimals: launch.decimals })
        }
      }
      return out
    },
  }
}
