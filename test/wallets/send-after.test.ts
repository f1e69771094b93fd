import { encodeFunctionData, erc20Abi, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GAS_METER_ADDRESS } from '../../src/wallets/bundler/gas-meter.ts'
import { startWalletFixture, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
beforeAll(async () => {
  f = await startWalletFixture()
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'

const approveOp = (userIndex: number, id: string, amount: bigint) => ({
  userIndex,
  id,
  calls: [{ to: f.chains.base.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, amount] }) }],
})

const simulated = (calls: { method: string; to?: string }[]) => calls.some((c) => c.to === GAS_METER_ADDRESS.toLowerCase())
const sent = (calls: { method: string }[]) => calls.filter((c) => c.method === 'eth_sendRawTransaction').length

describe('submitUserOperations with sendAfter', () => {
  it('signs and simulates at once but broadcasts only after the gate resolves', async () => {
    const { calls, service } = f.recordingService()
    let open: () => void = () => undefined
    const gate = new Promise<void>((resolve) => (open = resolve))
    const pending = service.submitUserOperations('base', [approveOp(6100, 'gated', 7n)], { sendAfter: gate })
    const deadline = Date.now() + 10_000
    while (!simulated(calls) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(simulated(calls)).toBe(true)
    // Held at the gate: nothing broadcast however long it waits.
    await new Promise((r) => setTimeout(r, 300))
    expect(sent(calls)).toBe(0)
    open()
    const [result] = await pending
    expect(result).toMatchObject({ id: 'gated', success: true })
    expect(sent(calls)).toBe(1)
    const wallet = await service.walletAddress(6100)
    expect(await f.clients.base.readContract({ address: f.chains.base.addresses.stablecoin, abi: erc20Abi, functionName: 'allowance', args: [wallet, DEST] })).toBe(7n)
  }, 60_000)

  it('sends nothing when the gate rejects, rejects with its reason, and leaves the wallet free for the next operation', async () => {
    const { calls, service } = f.recordingService()
    const failure = new Error('executing batch not written')
    let fail: (error: Error) => void = () => undefined
    const gate = new Promise<void>((_, reject) => (fail = reject))
    // Two chunks' worth of wallets: the second chunk must not be broadcast either.
    const requests = Array.from({ length: 80 }, (_, i) => approveOp(6200 + i, `refused-${i}`, 5n))
    const pending = service.submitUserOperations('base', requests, { sendAfter: gate })
    const deadline = Date.now() + 10_000
    while (!simulated(calls) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    fail(failure)
    await expect(pending).rejects.toBe(failure)
    await new Promise((r) => setTimeout(r, 200))
    expect(sent(calls)).toBe(0)
    // The nonce stream was released and its nonce never used: the same wallet's next operation goes through.
    const [next] = await service.submitUserOperations('base', [approveOp(6200, 'after', 9n)])
    expect(next).toMatchObject({ id: 'after', success: true })
    const wallet = await service.walletAddress(6200)
    expect(await f.clients.base.readContract({ address: f.chains.base.addresses.entryPoint, abi: [{ type: 'function', name: 'getNonce', stateMutability: 'view', inputs: [{ name: 'sender', type: 'address' }, { name: 'key', type: 'uint192' }], outputs: [{ type: 'uint256' }] }], functionName: 'getNonce', args: [wallet, 0n] })).toBe(1n)
  }, 60_000)
})
