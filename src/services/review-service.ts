import { randomBytes } from 'node:crypto'
import type { ChainKey } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { padNumber } from '../store/cursor.ts'
import type {
  ApiKeyRecord,
  FeedbackSubmission,
  KeyRequestSubmission,
  LaunchMethod,
  Launchpad,
  ProjectRecord,
  RegistrationSubmission,
  ReviewItem,
  ReviewKind,
  ReviewStatus,
} from '../domain/records.ts'
import { put, type Store } from '../store/open-store.ts'
import { readAll } from '../store/paginate.ts'
import type { BlocklistService } from './blocklist-service.ts'
import type { Clock } from './clock.ts'
import type { DeskService } from './desk-service.ts'
import type { KeyService } from './key-service.ts'
import { PROJECT_LOCK, type ProfilePatch, type ProjectService } from './project-service.ts'

export interface Receipt {
  status: 'received'
  message: string
}

export interface ApproveRegistrationInput {
  slug: string
  creatorAddress: string
  /** The token address expected at launch, when known at approval. */
  expectedTokenAddress?: string
  /** The token symbol (and name) announced, recorded as the binding's second fact. */
  expectedSymbol?: string
  expectedName?: string
  launchpad: Launchpad
  chain: ChainKey
  launchMethod?: LaunchMethod
  /** Label of the owner's key; defaults to the slug. */
  label?: string
  profile?: ProfilePatch
  note?: string
}

export interface ApprovedRegistration {
  review: ReviewItem
  project: ProjectRecord
  /** Plaintext owner key, shown once. */
  apiKey: string
  key: ApiKeyRecord
}

export interface ApprovedKeyRequest {
  review: ReviewItem
  apiKey: string
  key: ApiKeyRecord
}

export interface ReviewService {
  submitKeyRequest(submission: KeyRequestSubmission, requesterIp: string): Promise<Receipt>
  submitRegistration(submission: RegistrationSubmission, requesterIp: string): Promise<Receipt>
  submitFeedback(submission: FeedbackSubmission, requesterIp: string): Promise<Receipt>
  list(filter?: { kind?: ReviewKind | undefined; status?: ReviewStatus | undefined }): Promise<ReviewItem[]>
  get(id: string): Promise<ReviewItem | undefined>
  /** Creates the project and issues the owner's key, together with the review decision, in one batch. */
  approveRegistration(id: string, input: ApproveRegistrationInput): Promise<ApprovedRegistration>
  /** Issues a key (label defaults to the request's project name) in the same batch as the decision. */
  approveKeyRequest(id: string, input?: { label?: string; note?: string }): Promise<ApprovedKeyRequest>
  reject(id: string, note?: string): Promise<ReviewItem>
}

export interface ReviewServiceDeps {
  store: Store
  now: Clock
  keys: KeyService
  projects: ProjectService
  blocklist: BlocklistService
  desk: DeskService
}

const REVIEW_LOCK = 'reviews'

const RECEIPTS: Record<ReviewKind, string> = {
  key_request: 'Your key request was received. The operators review it and deliver a key through your contact if approved.',
  registration: 'Your project registration was received. The operators review it and reply through your contact.',
  feedback: 'Thank you, your feedback was received.',
}

export function createReviewService({ store, now, keys, projects, blocklist, desk }: ReviewServiceDeps): ReviewService {
  const { reviews } = store.sub

  /** Desk first (it closes for everyone), then the blocklist (IP, and the email and contact the submitter gave). */
  async function admit(requesterIp: string, email: string | undefined, contact: string) {
    const settings = await desk.get()
    if (!settings.open) {
      throw new PrebuyError('desk_closed', 'Submissions are temporarily closed. Please try again later.', {
        details: { retryAfterSeconds: settings.retryAfterSeconds },
      })
    }
    if (await blocklist.isBlocked({ ip: requesterIp, email, contact })) {
      throw new PrebuyError('blocked', 'Request blocked.')
    }
  }

  async function submit(item: ReviewItem): Promise<Receipt> {
    const email = item.kind === 'registration' ? item.submission.email : undefined
    await admit(item.requesterIp, email, item.submission.contact)
    await store.batch([put(reviews, item.id, item)])
    return { status: 'received', message: RECEIPTS[item.kind] }
  }

  let sequence = 0
  const base = (requesterIp: string) => {
    const nowMs = now()
    sequence = (sequence + 1) % 1_000_000
    // Time-ordered ids (the sequence orders submissions within one millisecond) so the operator's list reads
    // oldest first without another index.
    const id = `rev_${padNumber(BigInt(nowMs), 15)}_${padNumber(BigInt(sequence), 6)}_${randomBytes(3).toString('hex')}`
    return { id, status: 'pending' as const, requesterIp, createdAt: nowMs, decidedAt: null }
  }

  async function mustGetPending(id: string, kind: ReviewKind): Promise<ReviewItem> {
    const item = await reviews.get(id)
    if (!item || item.kind !== kind) throw new PrebuyError('review_not_found', `No ${kind.replace('_', ' ')} has this id.`)
    if (item.status !== 'pending') {
      throw new PrebuyError('review_already_decided', `This ${kind.replace('_', ' ')} was already ${item.status}.`)
    }
    return item
  }

  return {
    submitKeyRequest: (submission, ip) => submit({ ...base(ip), kind: 'key_request', submission }),
    submitRegistration: (submission, ip) => submit({ ...base(ip), kind: 'registration', submission }),
    submitFeedback: (submission, ip) => submit({ ...base(ip), kind: 'feedback', submission }),
    async list(filter = {}) {
      return (await readAll(reviews, ''))
        .map((entry) => entry.value)
        .filter((item) => (!filter.kind || item.kind === filter.kind) && (!filter.status || item.status === filter.status))
    },
    get: (id) => reviews.get(id),
    async approveRegistration(id, input) {
      return store.mutex.run(REVIEW_LOCK, () =>
        store.mutex.run(PROJECT_LOCK, async () => {
          const item = await mustGetPending(id, 'registration')
          if (item.kind !== 'registration') throw new PrebuyError('review_kind', 'unexpected review kind')
          const prepared = await keys.prepareKey(input.label ?? input.slug)
          try {
            const { record: project, ops: projectOps } = await projects.prepareProject(
              {
                slug: input.slug,
                creatorAddress: input.creatorAddress,
                ...(input.expectedTokenAddress === undefined ? {} : { expectedTokenAddress: input.expectedTokenAddress }),
                ...(input.expectedSymbol === undefined ? {} : { expectedSymbol: input.expectedSymbol }),
                ...(input.expectedName === undefined ? {} : { expectedName: input.expectedName }),
                launchpad: input.launchpad,
                chain: input.chain,
                launchMethod: input.launchMethod ?? 'open_market',
                ownerKeyId: prepared.record.id,
                registrationId: id,
                ...(input.profile ? { profile: input.profile } : {}),
              },
              item.submission,
            )
            const review: ReviewItem = {
              ...item,
              status: 'approved',
              decidedAt: now(),
              issuedKeyId: prepared.record.id,
              projectSlug: project.slug,
              ...(input.note ? { decisionNote: input.note } : {}),
            }
            await store.batch([...prepared.ops, ...projectOps, put(reviews, id, review)])
            return { review, project, apiKey: prepared.apiKey, key: prepared.record }
          } finally {
            prepared.release()
          }
        }),
      )
    },
    async approveKeyRequest(id, input = {}) {
      return store.mutex.run(REVIEW_LOCK, async () => {
        const item = await mustGetPending(id, 'key_request')
        if (item.kind !== 'key_request') throw new PrebuyError('review_kind', 'unexpected review kind')
        const prepared = await keys.prepareKey(input.label ?? item.submission.projectName)
        try {
          const review: ReviewItem = {
            ...item,
            status: 'approved',
            decidedAt: now(),
            issuedKeyId: prepared.record.id,
            ...(input.note ? { decisionNote: input.note } : {}),
          }
          await store.batch([...prepared.ops, put(reviews, id, review)])
          return { review, apiKey: prepared.apiKey, key: prepared.record }
        } finally {
          prepared.release()
        }
      })
    },
    async reject(id, note) {
      return store.mutex.run(REVIEW_LOCK, async () => {
        const item = await reviews.get(id)
        if (!item) throw new PrebuyError('review_not_found', 'No review item has this id.')
        if (item.kind === 'feedback') throw new PrebuyError('feedback_not_reviewable', 'Feedback is not approved or rejected.')
        if (item.status !== 'pending') throw new PrebuyError('review_already_decided', `This item was already ${item.status}.`)
        const review: ReviewItem = { ...item, status: 'rejected', decidedAt: now(), ...(note ? { decisionNote: note } : {}) }
        await store.batch([put(reviews, id, review)])
        return review
      })
    },
  }
}
