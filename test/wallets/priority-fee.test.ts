import { encodeFunctionData, erc20Abi, parseGwei, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PriorityFeePolicy } from '../../src/wallets/bundler/priority-fee-policy.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

/**
 * wallet.priorityFee on the devnet through the wallet service: a bundle's handleOps offers the policy's tip, the
 * launch tip in a launch's first blocks, and never more tip than the per-transaction cap.
 */

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'
const TIP = parseGwei('0.02')
const policy = (over: Partial<PriorityFeePolicy> = {}): PriorityFeePolicy => ({
  tip: { kind: 'fixed', tipWei: TIP },
  maxTipWeiPerTx: 10n ** 17n,
  launch: { multiplier: 2.5, blocks: 5 },
  ...over,
})
const approveOp = (userIndex: number, id: string) => ({
  userIndex,
  id,
  calls: [{ to: f.chains.base.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 1n] }) }],
})

async function tipOf(result: Parameters<typeof txHashOf>[0]) {
  const tx = await f.clients.base.getTransaction({ hash: txHashOf(result) })
  return { tip: tx.maxPriorityFeePerGas!, gas: tx.gas }
}

describe('priority-fee policy on every bundle', () => {
  it('offers the fixed tip, and the launch tip to a launch buy landing in its first blocks', async () => {
    const service = f.newService({ bundler: { pollingIntervalMs: 50, priorityFee: policy() } })
    const [plain] = await service.submitUserOperations('base', [approveOp(4100, 'plain')])
    expect((await tipOf(plain)).tip).toBe(TIP)

    const head = await f.clients.base.getBlock()
    const landsIn = { number: head.number + 1n, timestamp: head.timestamp + 1n }
    const [launch] = await service.submitUserOperations('base', [approveOp(4101, 'launch')], { landsIn, launchBlock: head.number })
    expect((await tipOf(launch)).tip).toBe((TIP * 250n) / 100n)
    // Past the launch's first blocks: the ordinary tip again.
    const [late] = await service.submitUserOperations('base', [approveOp(4102, 'late')], { landsIn, launchBlock: head.number - 10n })
    expect((await tipOf(late)).tip).toBe(TIP)
  })

  it('never pays more tip per transaction than maxEthPerTx', async () => {
    const cap = 1_000_000_000n // 1 gwei of tip in all, far under TIP × the bundle's gas
    const service = f.newService({ bundler: { pollingIntervalMs: 50, priorityFee: policy({ maxTipWeiPerTx: cap }) } })
    const [result] = await service.submitUserOperations('base', [approveOp(4103, 'capped')])
    expect(result?.status).toBe('included')
    const { tip, gas } = await tipOf(result)
    expect(tip * gas <= cap).toBe(true)
    expect(tip).toBe(cap / gas)
  })
})
