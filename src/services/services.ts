import type { Address } from 'viem'
import type { ChainKey } from '../chain/chain-keys.ts'
import type { Store } from '../store/open-store.ts'
import { createExecutionJournalService, type ExecutionJournalService } from './execution-journal-service.ts'
import { createOperatorViewsService, type OperatorViewsService } from './operator-views-service.ts'
import type { WalletService } from '../wallets/wallet-service.ts'
import { createBlocklistService, type BlocklistService } from './blocklist-service.ts'
import { createBuyerService, type BuyerService } from './buyer-service.ts'
import { systemClock, type Clock } from './clock.ts'
import { createDeskService, type DeskService } from './desk-service.ts'
import { createJournal } from '../journal/journal.ts'
import { createKeyService, type KeyService } from './key-service.ts'
import { createLaunchBindingService, type LaunchBindingService } from './launch-binding-service.ts'
import { createOrderService, type OrderService } from './order-service.ts'
import { createOtcService, type OtcService } from '../launch-methods/pooled-otc/otc-service.ts'
import { createDevBuyService, type DevBuyService } from '../launch-methods/dev-buy/dev-buy-service.ts'
import type { DevBuyChain } from '../launch-methods/dev-buy/chain/dev-buy-chain.ts'
import { createLaunchSimulationService, type LaunchSimulationService } from './launch-simulation-service.ts'
import type { OtcChain } from '../launch-methods/pooled-otc/chain/otc-chain.ts'
import type { Logger } from '../common/logger.ts'
import type { VestingChain } from '../launch-methods/vesting/chain/vesting-chain.ts'
import { createVestingService, type VestingService } from '../launch-methods/vesting/vesting-service.ts'
import { createProjectService, type ProjectService } from './project-service.ts'
import { createReviewService, type ReviewService } from './review-service.ts'
import { createOwnerChangeService, DEFAULT_NOTICE_HOURS, type OwnerChangeService } from './owner-change-service.ts'

/** Every domain service, wired once; the public routes and the admin API share these instances (and their caches). */
export interface Services {
  keys: KeyService
  projects: ProjectService
  orders: OrderService
  buyers: BuyerService
  reviews: ReviewService
  blocklist: BlocklistService
  desk: DeskService
  /** Launch authenticity for people: candidates, confirmations, binding edits. */
  launches: LaunchBindingService
  /** What the executor recorded per launch (replay). */
  executions: ExecutionJournalService
  /** Read-only views for the operator's commands (orders by project or key, launches, one project). */
  views: OperatorViewsService
  /** Pooled OTC offers: the owner's terms and deposit (the daemon's worker settles them). */
  otc: OtcService
  /** Dev-buy launches: the owner's parameters and the request to launch (the daemon's worker launches). */
  devBuy: DevBuyService
  /** What a project's launch would do with its order book now (owner and operator). */
  simulations: LaunchSimulationService
  /** Buyers' vesting positions (locked launch methods): their state on GET /orders and GET /wallet, releases on withdrawals. */
  vesting: VestingService
  /** The owner's changes of what the orders buy: the operator's confirmation, the notice period (docs/owner-changes.md). */
  ownerChanges: OwnerChangeService
}

export interface ServicesDeps {
  store: Store
  wallets: WalletService
  now?: Clock
  /** Cache lifetime of a project's funded spend (ms); default 15 s. */
  fundedCacheMs?: number
  /** Chain access for OTC offers; absent: OTC calls are refused (otc_unavailable). */
  otcChain?: OtcChain
  /** Chain access for dev-buy launches; absent: dev-buy calls are refused (dev_buy_unavailable). */
  devBuyChain?: DevBuyChain
  /** The vesting contract's reads; absent: positions are shown without their state now. */
  vestingChain?: VestingChain
  /** Where services report what the operator must know outside a request's answer (absent: not reported). */
  logger?: Logger
  /** Notice period of an owner's change confirmed while older orders are live (ms); default DEFAULT_NOTICE_HOURS. */
  ownerChangeNoticeMs?: number
  /** The code at an address (the warnings about a deployer being registered); absent: not read. */
  readCode?: (chain: ChainKey, address: Address) => Promise<string | undefined>
  /** Configured shared deployers (config launches.sharedDeployers), shown with candidates beside the defaults. */
  sharedDeployers?: readonly string[]
}

export function createServices({
  store,
  wallets,
  now = systemClock,
  fundedCacheMs,
  otcChain,
  devBuyChain,
  vestingChain,
  logger,
  ownerChangeNoticeMs = DEFAULT_NOTICE_HOURS * 3_600_000,
  readCode,
  sharedDeployers,
}: ServicesDeps): Services {
  const keys = createKeyService({ store, wallets, now })
  const projects = createProjectService({ store, wallets, now, ...(fundedCacheMs === undefined ? {} : { fundedCacheMs }) })
  const blocklist = createBlocklistService({ store, now })
  const desk = createDeskService({ store, now })
  return {
    keys,
    projects,
    orders: createOrderService({ store, now }),
    buyers: createBuyerService({ store }),
    reviews: createReviewService({ store, now, keys, projects, blocklist, desk }),
    blocklist,
    desk,
    launches: createLaunchBindingService({
      store,
      journal: createJournal(store),
      now,
      ...(readCode ? { readCode } : {}),
      ...(sharedDeployers ? { sharedDeployers } : {}),
    }),
    executions: createExecutionJournalService({ store, journal: createJournal(store), projects }),
    views: createOperatorViewsService({ store, journal: createJournal(store), projects }),
    otc: createOtcService({ store, wallets, now, ...(otcChain ? { chain: otcChain } : {}), ...(logger ? { logger } : {}) }),
    devBuy: createDevBuyService({ store, now, ...(devBuyChain ? { chain: devBuyChain } : {}) }),
    simulations: createLaunchSimulationService({ store, wallets, projects, now, ...(devBuyChain ? { devBuyChain } : {}) }),
    vesting: createVestingService({ store, ...(vestingChain ? { chain: vestingChain } : {}) }),
    ownerChanges: createOwnerChangeService({ store, journal: createJournal(store), projects, now, noticeMs: ownerChangeNoticeMs }),
  }
}
