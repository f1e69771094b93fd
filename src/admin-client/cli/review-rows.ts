import type { ReviewItem } from '../../admin-api/contract.ts'

/** One line per review item for the plain-text listing. */
export function reviewRow(item: ReviewItem): Record<string, unknown> {
  const submission = item.submission as unknown as Record<string, unknown>
  return {
    id: item.id,
    status: item.status,
    received: new Date(item.createdAt).toISOString(),
    name: submission.projectName ?? submission.name,
    contact: submission.contact,
    ...(item.kind === 'registration' ? { email: item.submission.email } : {}),
    ...(item.kind === 'feedback' ? { message: item.submission.message } : {}),
    ...(item.kind === 'key_request' ? { useCases: item.submission.useCases.join(',') } : {}),
    result: item.projectSlug ?? item.issuedKeyId ?? item.decisionNote,
  }
}

export const REVIEW_COLUMNS = {
  registration: ['id', 'status', 'received', 'name', 'email', 'contact', 'result'],
  key_request: ['id', 'status', 'received', 'name', 'useCases', 'contact', 'result'],
  feedback: ['id', 'status', 'received', 'name', 'contact', 'message'],
} as const
