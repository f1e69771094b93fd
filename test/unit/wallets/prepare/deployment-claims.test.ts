import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import type { OperationAccount } from '../../../../src/wallets/accounts/operation-account.ts'
import { claimUndeployedSenders, createDeploymentClaims } from '../../../../src/wallets/prepare/deployment-claims.ts'

const A: Address = '0x00000000000000000000000000000000000000aA'
const B: Address = '0x00000000000000000000000000000000000000bb'
const account = (address: Address) => ({ address }) as OperationAccount
const settle = () => new Promise((resolve) => setImmediate(resolve))

/** Deployment status reads answered from `deployed`, each read's addresses recorded. */
function fakeReads(deployed: Set<string>) {
  const reads: Address[][] = []
  return {
    reads,
    deploymentStatus: async (addresses: readonly Address[]) => {
      reads.push([...addresses])
      return addresses.map((address) => deployed.has(address.toLowerCase()))
    },
  }
}

describe('deployment claims', () => {
  it('holds a wallet until its claim ends', async () => {
    const claims = createDeploymentClaims()
    const claim = claims.claim(A.toLowerCase())
    expect(claims.has(A.toLowerCase())).toBe(true)
    const settled = claims.settled(A.toLowerCase())
    claim.end()
    await settled
    expect(claims.has(A.toLowerCase())).toBe(false)
    expect(claims.settled(A.toLowerCase())).toBeUndefined()
  })

  it('claims every undeployed sender, reading only those whose state is not known', async () => {
    const claims = createDeploymentClaims()
    const reads = fakeReads(new Set())
    const known = new Map([[B.toLowerCase(), true]])
    const own = await claimUndeployedSenders(claims, reads, [account(A), account(B)], known)
    expect(own.map((claim) => claim.key)).toEqual([A.toLowerCase()])
    expect(reads.reads).toEqual([[A]])
    expect(claims.has(A.toLowerCase())).toBe(true)
  })

  it('claims nothing while another batch deploys one of its wallets, then reads everything again', async () => {
    const claims = createDeploymentClaims()
    const deployed = new Set<string>()
    const reads = fakeReads(deployed)
    const other = claims.claim(A.toLowerCase())
    const waiting = claimUndeployedSenders(claims, reads, [account(A), account(B)], new Map([[B.toLowerCase(), false]]))
    await settle()
    // All or nothing: B is not claimed while the batch waits for A.
    expect(claims.has(B.toLowerCase())).toBe(false)
    deployed.add(A.toLowerCase())
    other.end()
    expect((await waiting).map((claim) => claim.key)).toEqual([B.toLowerCase()])
    expect(reads.reads).toEqual([[A], [A, B]])
  })
})
