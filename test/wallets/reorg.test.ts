import { encodeFunctionData, erc20Abi, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { startWalletFixture, txHashOf, type RecordedCall, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
let service: PrebuyWalletService
beforeAll(async () => {
  f = await startWalletFixture()
  // Short receipt timeout: a transaction stuck behind a nonce gap would otherwise only be noticed after 30 s.
  service = f.newService({ bundler: { pollingIntervalMs: 50, receiptTimeoutMs: 2_000, maxReconcileRounds: 5 } })
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'
const approveOp = (userIndex: number, id: string) => ({
  userIndex,
  id,
  calls: [{ to: f.chains.base.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 5n] }) }],
})

describe('after a reorg that dropped the block of a bundle', () => {
  it('deploys the wallet again and sends with the chain nonce (no stale deployment, no nonce gap)', async () => {
    const client = f.clients.base
    const rpc = f.chains.base.rpcUrl
    const bundler = service.bundlerAddress('base')
    const wallet = await service.walletAddress(80)
    const [first] = await service.submitUserOperations('base', [approveOp(80, 'deploys')])
    expect(first).toMatchObject({ status: 'included' })
    expect(await client.getCode({ address: wallet })).not.toBeUndefined()
    // The second operation finds the wallet deployed: the service remembers that.
    const [second] = await service.submitUserOperations('base', [approveOp(80, 'deployed')])
    expect(second).toMatchObject({ status: 'included' })
    const nonceBefore = await client.getTransactionCount({ address: bundler })

    // Both blocks (the deployment and the bundler's two transactions) are replaced by empty ones.
    await jsonRpc(rpc, 'anvil_reorg', [2, []])
    expect(await client.getCode({ address: wallet })).toBeUndefined()
    expect(await client.getTransactionCount({ address: bundler })).toBe(nonceBefore - 2)

    const mark = f.logLines.length
    const [again] = await service.submitUserOperations('base', [approveOp(80, 'after-reorg')])
    expect(again).toMatchObject({ id: 'after-reorg', status: 'included' })
    // Sent at the chain's nonce at once: not sent behind a gap, found stuck at the receipt timeout and its operations
    // sent again, the gapped transaction left in the pool. Said by the bundler's log and the node's pool, not by how
    // long the call took (it was under 2 s: a busy machine can take that long without any gap).
    expect(f.logLines.slice(mark).filter((line) => line.includes('behind a nonce gap'))).toEqual([])
    const pool = await jsonRpc<{ pending: Record<string, unknown>; queued: Record<string, unknown> }>(rpc, 'txpool_content')
    expect([...Object.keys(pool.pending), ...Object.keys(pool.queued)].map((from) => from.toLowerCase())).not.toContain(bundler.toLowerCase())
    expect(await client.getCode({ address: wallet })).not.toBeUndefined()
    const receipt = await client.getTransactionReceipt({ hash: txHashOf(again) })
    const transaction = await client.getTransaction({ hash: txHashOf(again) })
    expect(receipt.status).toBe('success')
    expect(transaction.nonce).toBe(nonceBefore - 2)
  }, 60_000)
})

/**
 * The executor warms the send path while funded orders wait (warmSends, each processed block): a send of ours is then
 * followed by a pending-nonce check (chain-now.ts keepChecked), so a launch's send right after an approval ahead does
 * not wait a round trip for one (issue 23 item 3, docs/execution.md §5 "The check after our own sends"). A reorg the
 * daemon sees (forgetAhead) drops that check: the next send checks again and goes at the chain's nonce.
 */
describe('the pending-nonce check after our own sends (kept checked by warmSends)', () => {
  const plain = { to: DEST, data: '0x' as const, gas: 50_000n }
  const checksAfter = (calls: RecordedCall[], from: number) => calls.slice(from).filter((call) => call.method === 'eth_getTransactionCount')
  type Recording = ReturnType<typeof f.recordingService>

  /** The send path warmed (as the executor does), one send of ours landed, and the check after it answered. */
  async function sendThenCheck({ calls, service }: Recording) {
    const accounts = service.senderAddresses('base').length
    const primary = service.bundlerAddress('base')
    await service.warmSends('base')
    const first = await service.sendFromAccount('base', primary, plain)
    await first.landed
    const firstSend = calls.findIndex((call) => call.method === 'eth_sendRawTransaction')
    // One check of every sender account after the send, asked once it was answered, and answered.
    await vi.waitFor(() => expect(checksAfter(calls, firstSend).filter((call) => call.answered !== undefined)).toHaveLength(accounts), {
      timeout: 10_000,
      interval: 20,
    })
    return { accounts, primary, first }
  }

  it('follows a send of ours: the next send asks no nonce before eth_sendRawTransaction', async () => {
    // A check stands a minute here, not 2 s: what is asserted does not rest on this host's speed.
    const recording = f.recordingService({ bundler: { nonceCheckFreshMs: 60_000 } })
    const { calls, service } = recording
    const { primary, first } = await sendThenCheck(recording)
    calls.length = 0
    const second = await service.sendFromAccount('base', primary, plain, {}, { moment: { launchBlock: 1n, landsIn: 2n } })
    const beforeSend = calls.slice(
      0,
      calls.findIndex((call) => call.method === 'eth_sendRawTransaction'),
    )
    expect(beforeSend.map((call) => call.method)).not.toContain('eth_getTransactionCount')
    expect(second.nonce).toBe(first.nonce + 1)
    expect((await second.landed).receipt?.status).toBe('success')
  }, 60_000)

  it('is dropped by a reorg the daemon saw (forgetAhead): the next send checks again and goes at the chain nonce, no gap', async () => {
    const recording = f.recordingService({
      bundler: { pollingIntervalMs: 50, receiptTimeoutMs: 2_000, maxReconcileRounds: 5, nonceCheckFreshMs: 60_000 },
    })
    const { calls, service } = recording
    const client = f.clients.base
    // The check after the send read the chain before the reorg: by itself it would stand for the next send.
    const { accounts, primary, first } = await sendThenCheck(recording)
    await jsonRpc(f.chains.base.rpcUrl, 'anvil_reorg', [1, []])
    expect(await client.getTransactionCount({ address: primary, blockTag: 'pending' })).toBe(first.nonce)
    service.forgetAhead!('base')
    const mark = calls.length
    const again = await service.sendFromAccount('base', primary, plain)
    const beforeSend = calls.slice(mark, mark + calls.slice(mark).findIndex((call) => call.method === 'eth_sendRawTransaction'))
    // The check (every account), then the account's own nonce read: the check found the chain behind the counter.
    expect(beforeSend.filter((call) => call.method === 'eth_getTransactionCount')).toHaveLength(accounts + 1)
    // At the nonce the reorg freed, not behind a gap.
    expect(again.nonce).toBe(first.nonce)
    const receipt = await client.waitForTransactionReceipt({ hash: again.hash, pollingInterval: 50 })
    expect(receipt.status).toBe('success')
    const pool = await jsonRpc<{ pending: Record<string, unknown>; queued: Record<string, unknown> }>(f.chains.base.rpcUrl, 'txpool_content')
    expect([...Object.keys(pool.pending), ...Object.keys(pool.queued)].map((from) => from.toLowerCase())).not.toContain(primary.toLowerCase())
  }, 60_000)
})
