import { encodeFunctionData, erc20Abi, type Address } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

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
