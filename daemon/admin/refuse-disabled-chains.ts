import type { ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { AdminOperations } from './admin-operations.ts'

/**
 * The operator's operations, with a project on a chain the daemon does not run on (left out of the rpc-mode config)
 * refused at approval: nothing would index its launch or buy its orders.
 */
export function refuseDisabledChains(operations: AdminOperations, enabled: readonly ChainKey[]): AdminOperations {
  return {
    ...operations,
    approveRegistration(input) {
      if (!enabled.includes(input.body.chain)) {
        return Promise.reject(new PrebuyError('chain_disabled', `This service does not run on ${input.body.chain}: it is disabled in its configuration.`))
      }
      return operations.approveRegistration(input)
    },
  }
}
