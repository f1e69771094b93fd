import type {
  ApproveKeyRequestRequest,
  ApproveKeyRequestResult,
  ApproveRegistrationRequest,
  ApproveRegistrationResult,
  BlockEntry,
  BlockRequest,
  BlockType,
  DaemonStatus,
  DeskSettings,
  DeskUpdate,
  Deployments,
  FundRequest,
  FundResult,
  ProfileUpdate,
  ProjectRecord,
  KeySummary,
  MineResult,
  ReviewItem,
  ReviewKind,
  ReviewStatus,
} from '../../src/admin-client/admin-types.ts'

/**
 * What the admin API can do, as one port. start-daemon.ts implements it with the services (keys, projects, reviews,
 * blocklist, desk) and the devnet helpers; the routes only validate, call and serialise.
 */
export interface AdminOperations {
  status(): Promise<DaemonStatus>
  listReviews(kind: ReviewKind, status: ReviewStatus | undefined): Promise<ReviewItem[]>
  approveRegistration(id: string, request: ApproveRegistrationRequest): Promise<ApproveRegistrationResult>
  approveKeyRequest(id: string, request: ApproveKeyRequestRequest): Promise<ApproveKeyRequestResult>
  rejectReview(kind: 'registration' | 'key_request', id: string, note: string | undefined): Promise<ReviewItem>
  listProjects(): Promise<ProjectRecord[]>
  /** Edits an approved project's public profile. */
  updateProfile(slug: string, update: ProfileUpdate): Promise<ProjectRecord>
  listKeys(): Promise<KeySummary[]>
  /** By key id or label. Idempotent. */
  revokeKey(idOrLabel: string): Promise<KeySummary>
  getDesk(): Promise<DeskSettings>
  setDesk(update: DeskUpdate): Promise<DeskSettings>
  listBlocklist(): Promise<BlockEntry[]>
  addBlock(request: BlockRequest): Promise<BlockEntry>
  removeBlock(type: BlockType, value: string): Promise<{ removed: boolean }>
  /** Present only when the daemon runs its own devnet chains. */
  devnet?: {
    fund(request: FundRequest): Promise<FundResult[]>
    mine(blocks: number): Promise<MineResult>
    deployments(): Promise<Deployments>
  }
}
