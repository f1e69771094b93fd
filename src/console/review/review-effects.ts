import type { AdminClient } from '../../admin-client/admin-client.ts'
import type { ReviewEffect } from './review-state.ts'

/** Performs one of the review screen's effects with the admin client; resolves with what the reducer expects back. */
export async function performReviewEffect(client: AdminClient, effect: ReviewEffect): Promise<unknown> {
  switch (effect.type) {
    case 'load_blocklist':
      return client.listBlocklist()
    case 'approve_registration':
      return client.approveRegistration(effect.reviewId, effect.request)
    case 'approve_key_request':
      return client.approveKeyRequest(effect.reviewId, effect.label === undefined ? {} : { label: effect.label })
    case 'reject':
      return effect.kind === 'registration' ? client.rejectRegistration(effect.reviewId, effect.note) : client.rejectKeyRequest(effect.reviewId, effect.note)
    case 'load_changes':
      return client.pendingChanges()
    case 'confirm_change':
      return client.confirmChange(effect.slug, { kind: effect.kind })
    case 'reject_change':
      return client.rejectChange(effect.slug, { kind: effect.kind, reason: effect.reason })
    case 'block': {
      const added = []
      for (const entry of effect.entries) added.push(await client.addBlock(entry))
      return added
    }
  }
}
