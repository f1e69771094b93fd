import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Readable } from 'node:stream'
import type {
  ExecutionJournal,
  LaunchDetail,
  LaunchSummary,
  LinkSocialResult,
  OrderView,
  ProjectDetail,
  RotateKeyResult,
  ApproveKeyRequestResult,
  ApproveRegistrationResult,
  BlockEntry,
  BlockType,
  DaemonStatus,
  DeskSettings,
  KeySummary,
  ProjectRecord,
  RemoveBlockResult,
  ReviewItem,
  RevokeKeyResult,
  ReviewKind,
  ReviewStatus,
  ValidAdminRequest,
  LaunchCandidatesResult,
  OtcResult,
  DevBuyResult,
  LaunchSimulation,
  LaunchCandidateView,
  PendingChangeItemView,
  ConfirmChangeResult,
  RejectChangeResult,
} from '../../src/admin-api/contract.ts'

/**
 * What the operator's core admin routes can do, as one port. service-operations.ts implements it with the services
 * (keys, projects, reviews, blocklist, desk); the routes only validate, call and serialise. The devnet helpers are
 * a port of their own (devnet-operations.ts).
 */
export interface AdminOperations {
  status(): Promise<DaemonStatus>
  /** A consistent backup of the store and the data dir files a restore needs, as a gzip stream (src/store/backup). */
  backup(): Readable
  listReviews(kind: ReviewKind, status: ReviewStatus | undefined): Promise<ReviewItem[]>
  approveRegistration(id: string, request: ValidAdminRequest<'approveRegistration'>): Promise<ApproveRegistrationResult>
  approveKeyRequest(id: string, request: ValidAdminRequest<'approveKeyRequest'>): Promise<ApproveKeyRequestResult>
  rejectReview(kind: 'registration' | 'key_request', id: string, note: string | undefined): Promise<ReviewItem>
  listProjects(): Promise<ProjectRecord[]>
  /** Edits an approved project's public profile. */
  updateProfile(slug: string, update: ValidAdminRequest<'profileUpdate'>): Promise<ProjectRecord>
  listKeys(): Promise<KeySummary[]>
  /** By key id or label. Idempotent. */
  revokeKey(idOrLabel: string): Promise<RevokeKeyResult>
  getDesk(): Promise<DeskSettings>
  setDesk(update: ValidAdminRequest<'deskUpdate'>): Promise<DeskSettings>
  listBlocklist(): Promise<BlockEntry[]>
  addBlock(request: ValidAdminRequest<'block'>): Promise<BlockEntry>
  removeBlock(type: BlockType, value: string): Promise<RemoveBlockResult>
  /** A pooled_otc project's offer; set it, or have the owner's wallet deposit it, on the owner's behalf. */
  getOtc(slug: string): Promise<OtcResult>
  simulateLaunch(slug: string, query: ValidAdminRequest<'simulationQuery'>): Promise<LaunchSimulation>
  setOtc(slug: string, request: ValidAdminRequest<'otcOffer'>): Promise<OtcResult>
  depositOtc(slug: string): Promise<OtcResult>
  cancelOtc(slug: string): Promise<OtcResult>
  /** A dev_buy project's launch; set its parameters, or ask to launch, on the owner's behalf. */
  getDevBuy(slug: string): Promise<DevBuyResult>
  setDevBuy(slug: string, request: ValidAdminRequest<'devBuyParams'>): Promise<DevBuyResult>
  launchDevBuy(slug: string): Promise<DevBuyResult>
  /** Edits what binds a waiting project to its launch (deployer, expected token). */
  updateBinding(slug: string, request: ValidAdminRequest<'projectBinding'>): Promise<ProjectRecord>
  /** Why a deployer being registered may not identify one project's launch (launch-binding-service.ts). */
  deployerWarnings(chain: ChainKey, deployer: string): Promise<string[]>
  /** Owners' changes of what the orders buy: the queue, the confirmation, the rejection (docs/owner-changes.md). */
  pendingChanges(): Promise<PendingChangeItemView[]>
  confirmChange(slug: string, request: ValidAdminRequest<'confirmChange'>): Promise<ConfirmChangeResult>
  rejectChange(slug: string, request: ValidAdminRequest<'rejectChange'>): Promise<RejectChangeResult>
  launchCandidates(query: ValidAdminRequest<'launchCandidatesQuery'>): Promise<LaunchCandidatesResult>
  confirmLaunch(slug: string, token: string): Promise<LaunchCandidateView>
  executionJournal(slug: string): Promise<ExecutionJournal>
  rotateKey(idOrLabel: string): Promise<RotateKeyResult>
  linkSocial(idOrLabel: string, request: ValidAdminRequest<'linkSocial'>): Promise<LinkSocialResult>
  listOrders(query: ValidAdminRequest<'ordersQuery'>): Promise<OrderView[]>
  listLaunches(): Promise<LaunchSummary[]>
  getLaunch(slug: string): Promise<LaunchDetail>
  getProject(slug: string): Promise<ProjectDetail>
}
