import type { UserOperationResult } from './wallet-service.ts'

/** A UserOperation that did not succeed: every status but `included`. */
export type FailedUserOperation = Exclude<UserOperationResult, { status: 'included' }>

/** Why an operation did not succeed, in the words logs and journals have always used (for people, not for decisions). */
export function failureReason(result: FailedUserOperation): string {
  switch (result.status) {
    case 'reverted':
      return result.revert.message
    case 'bundle_reverted':
      return 'bundle transaction reverted; the operation did not run'
    case 'not_mined':
      return 'not mined yet: the bundle transaction is still unconfirmed and may be included later'
    case 'refused':
    case 'not_sent':
      return result.reason
  }
}
