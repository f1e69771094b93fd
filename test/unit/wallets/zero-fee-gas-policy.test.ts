import { describe, expect, it } from 'vitest'
import type { OperationAccount } from '../../../src/wallets/accounts/operation-account.ts'
import { createZeroFeeGasPolicy, type UserOperationDraft } from '../../../src/wallets/gas-policy.ts'

describe('createZeroFeeGasPolicy', () => {
  const account = { validationGas: 100_000n, deploymentGas: 300_000n } as OperationAccount
  const draft = (patch: Partial<UserOperationDraft> = {}): UserOperationDraft => ({
    account,
    deploys: false,
    fields: { sender: '0x0000000000000000000000000000000000000001', nonce: 0n, callData: '0x' },
    ...patch,
  })

  it('uses the service default call gas unless the request declared its own; zero fees; deployment gas only when deploying', async () => {
    const policy = createZeroFeeGasPolicy({ callGasLimit: 2_000_000n, preVerificationGas: 60_000n })
    const [plain, small, deploying] = await policy.price([draft(), draft({ callGasLimit: 200_000n }), draft({ deploys: true })])
    expect(plain).toMatchObject({
      callGasLimit: 2_000_000n,
      verificationGasLimit: 100_000n,
      preVerificationGas: 60_000n,
      maxFeePerGas: 0n,
      maxPriorityFeePerGas: 0n,
    })
    expect(small!.callGasLimit).toBe(200_000n)
    expect(deploying!.verificationGasLimit).toBe(400_000n)
  })
})
