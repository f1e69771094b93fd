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
  ProfileUpdate,
  ProjectRecord,
  KeySummary,
  ReviewItem,
  ReviewKind,
  ReviewStatus,
} from '../../src/admin-client/admin-types.ts'

/**
 * What the operator's core admin routes can do, as one port. service-operations.ts implements it with the services
 * (keys, projects, reviews, blocklist, desk); the routes only validate, call and serialise. The devnet helpers are
 * a port of their own (devnet-operations.ts).
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
}
