import type { OperationAccount } from '../accounts/operation-account.ts'
import type { AccountReads } from './account-reads.ts'

/** A wallet's deployment claimed by one batch (or one deployment ahead) until `end`. Keys are lower-case addresses. */
export interface DeploymentClaim {
  key: string
  end(): void
}

/**
 * Which wallets are being deployed, by whom: an account without code gets initCode on exactly one operation at a time,
 * because two initCodes for one sender would make the second handleOps revert (AA10) and take every other operation
 * of its bundle down with it.
 */
export interface DeploymentClaims {
  has(key: string): boolean
  /** Settles when the deployment claimed for the wallet ends; undefined when none is claimed. */
  settled(key: string): Promise<void> | undefined
  /** Claims the wallet's deployment; the caller checked that nobody holds it, with no await since. */
  claim(key: string): DeploymentClaim
}

export function createDeploymentClaims(): DeploymentClaims {
  const deploying = new Map<string, Promise<void>>()
  return {
    has: (key) => deploying.has(key),
    settled: (key) => deploying.get(key),
    claim(key) {
      let end: () => void = () => undefined
      deploying.set(key, new Promise<void>((resolve) => (end = resolve)))
      return {
        key,
        end: () => {
          deploying.delete(key)
          end()
        },
      }
    },
  }
}

/**
 * Claims the deployment of every sender without code (`knownDeployed`: states read ahead, by lower-case address; the
 * others are read), waiting first for any of them another batch is deploying. Returns this batch's claims.
 */
export async function claimUndeployedSenders(
  claims: DeploymentClaims,
  reads: Pick<AccountReads, 'deploymentStatus'>,
  senders: readonly OperationAccount[],
  knownDeployed: Map<string, boolean>,
): Promise<DeploymentClaim[]> {
  // All-or-nothing claims: a batch claims its undeployed senders only when none is being deployed by another
  // batch, and otherwise waits holding nothing. Claiming some and waiting for others could deadlock two batches
  // that each wait for a wallet the other claimed.
  for (;;) {
    const unknown = senders.filter((account) => !knownDeployed.has(account.address.toLowerCase()))
    const read = await reads.deploymentStatus(unknown.map((account) => account.address))
    const readOf = new Map(unknown.map((account, index) => [account.address.toLowerCase(), read[index] === true]))
    const codes = senders.map((account) => knownDeployed.get(account.address.toLowerCase()) ?? readOf.get(account.address.toLowerCase()) === true)
    // A wait below means another batch was deploying: read everything again afterwards.
    knownDeployed.clear()
    const undeployed = senders.filter((_, index) => !codes[index]).map((account) => account.address.toLowerCase())
    const busy = undeployed.map((key) => claims.settled(key)).filter((other) => other !== undefined)
    if (busy.length > 0) {
      await Promise.all(busy)
      continue
    }
    // Nothing between the last await and here: the check-and-claim is atomic on the event loop.
    return undeployed.map((key) => claims.claim(key))
  }
}
