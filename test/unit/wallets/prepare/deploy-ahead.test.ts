/** A deployment ahead's claims and cache marks, with the chain replaced by promises the test settles. */
import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { withResolvers } from '../../../../src/common/with-resolvers.ts'
import type { DeploymentOutcome } from '../../../../src/wallets/bundler/bundler.ts'
import { createAccountStateCache } from '../../../../src/wallets/account-state-cache.ts'
import type { OperationAccount } from '../../../../src/wallets/accounts/operation-account.ts'
import { createNonceStreams } from '../../../../src/wallets/nonce-streams.ts'
import { deployAhead } from '../../../../src/wallets/prepare/deploy-ahead.ts'
import { createDeploymentClaims } from '../../../../src/wallets/prepare/deployment-claims.ts'

const addressOf = (userIndex: number) => `0x${(userIndex + 1).toString(16).padStart(40, '0')}` as Address

function setup() {
  const states = createAccountStateCache({ maxAgeMs: 60_000 })
  const claims = createDeploymentClaims()
  const account = (userIndex: number) =>
    ({
      address: addressOf(userIndex),
      deploymentGas: 400_000n,
      factoryArgs: async () => ({ factory: addressOf(999), factoryData: '0x' }),
    }) as unknown as OperationAccount
  const ctx = {
    chain: { key: 'base', txGasCap: 2n ** 24n },
    provider: { account: async (_chain: string, userIndex: number) => account(userIndex) },
    streams: createNonceStreams(),
    states,
    reads: { waitForCode: async () => undefined },
    claims,
  } as unknown as Parameters<typeof deployAhead>[0]
  const landed = withResolvers<DeploymentOutcome>()
  const deploy = async () => ({ hash: '0x01' as const, landed: landed.promise })
  return { ctx, states, claims, landed, deploy }
}

describe('deployAhead (wallets deployed before a launch)', () => {
  it('keeps a read that saw the code when the landing is reported after it; drops one that saw none', async () => {
    const { ctx, states, claims, landed, deploy } = setup()
    for (const userIndex of [1, 2]) states.record(states.beginRead(), addressOf(userIndex), { deployed: false, nonce: 0n })
    expect(await deployAhead(ctx, [1, 2], deploy)).toBe(2)
    expect(claims.has(addressOf(1).toLowerCase())).toBe(true)
    // A readying pass while the transaction travels: wallet 1 read before it was mined, wallet 2 after.
    states.record(states.beginRead(), addressOf(1), { deployed: false, nonce: 0n })
    states.record(states.beginRead(), addressOf(2), { deployed: true, nonce: 0n })
    landed.resolve({ mined: true, pending: false })
    await landed.promise
    await Promise.resolve()
    expect(claims.has(addressOf(1).toLowerCase())).toBe(false)
    expect(states.get(addressOf(1))).toBeUndefined()
    expect(states.get(addressOf(2))).toEqual({ deployed: true, nonce: 0n })
  })

  it('deploys only wallets known undeployed and not claimed already', async () => {
    const { ctx, states, deploy } = setup()
    states.record(states.beginRead(), addressOf(1), { deployed: false, nonce: 0n })
    states.record(states.beginRead(), addressOf(2), { deployed: true, nonce: 3n })
    expect(await deployAhead(ctx, [1, 2, 3, 1], deploy)).toBe(1)
    // Claimed by the first call (its transaction still travels): not sent again.
    expect(await deployAhead(ctx, [1], deploy)).toBe(0)
  })
})
