import { encodeFunctionData, erc20Abi, type Address, type Hash } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { applyMiningMode } from '../../devnet/anvil/mining-mode.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { failureReason } from '../../src/wallets/failure-reason.ts'
import type { UserOperationResult } from '../../src/wallets/wallet-service.ts'
import { startWalletFixture, txHashOf, type WalletFixture } from './devnet-fixture.ts'

let f: WalletFixture
let service: PrebuyWalletService
beforeAll(async () => {
  f = await startWalletFixture()
  // Short receipt timeout so a dropped or replaced transaction is noticed within the test.
  service = f.newService({ bundler: { pollingIntervalMs: 50, receiptTimeoutMs: 400, maxReconcileRounds: 20 } })
}, 120_000)
afterAll(async () => {
  await f?.stop()
})

const DEST: Address = '0x000000000000000000000000000000000000dEaD'
const rpc = () => f.chains.second_chain.rpcUrl

/** Waits for a log line with this message written after `from`, and returns it parsed. */
async function logLine(message: string, from: number): Promise<Record<string, unknown>> {
  for (let i = 0; i < 200; i++) {
    for (const line of f.logLines.slice(from)) {
      const parsed = JSON.parse(line) as Record<string, unknown>
      if (parsed.msg === message) return parsed
    }
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  throw new Error(`no "${message}" log line`)
}

/** Mines a block every 100 ms until stopped (the chain itself is in manual mode). */
function backgroundMiner(): () => void {
  const timer = setInterval(() => void jsonRpc(rpc(), 'evm_mine').catch(() => undefined), 100)
  return () => clearInterval(timer)
}

const approveOp = (userIndex: number, id: string) => ({
  userIndex,
  id,
  calls: [{ to: f.chains.second_chain.addresses.stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [DEST, 5n] }) }],
})

describe('bundler reconciliation', () => {
  it('re-broadcasts a handleOps transaction that was dropped from the pool', async () => {
    await applyMiningMode(rpc(), 'manual')
    let stopMiner: () => void = () => undefined
    try {
      const mark = f.logLines.length
      const pending = service.submitUserOperations('second_chain', [approveOp(60, 'dropped')])
      const sent = await logLine('handleOps sent', mark)
      await jsonRpc(rpc(), 'anvil_dropTransaction', [sent.txHash])
      await logLine('bundle transaction dropped; re-broadcasting', mark)
      stopMiner = backgroundMiner()
      const [result] = await pending
      expect(result).toMatchObject({ id: 'dropped', status: 'included', txHash: sent.txHash })
    } finally {
      stopMiner()
      await applyMiningMode(rpc(), 'auto')
    }
  })

  it('sends the operations again when another transaction took the bundle nonce', async () => {
    await applyMiningMode(rpc(), 'manual')
    let stopMiner: () => void = () => undefined
    try {
      const mark = f.logLines.length
      const pending = service.submitUserOperations('second_chain', [approveOp(61, 'replaced'), approveOp(62, 'replaced-2')])
      const sent = await logLine('handleOps sent', mark)
      await jsonRpc(rpc(), 'anvil_dropTransaction', [sent.txHash])
      // Someone else (an operator by hand, a second process) uses the bundler EOA's nonce for another transaction.
      const bundler = f.keys.bundlerSigner()
      const replacement = await bundler.signTransaction({
        type: 'eip1559',
        chainId: f.chains.second_chain.chainId,
        to: bundler.address,
        value: 0n,
        gas: 21_000n,
        nonce: sent.nonce as number,
        maxFeePerGas: 10_000_000_000n,
        maxPriorityFeePerGas: 1_000_000_000n,
      })
      const replacementHash = await jsonRpc<Hash>(rpc(), 'eth_sendRawTransaction', [replacement])
      await jsonRpc(rpc(), 'evm_mine')
      stopMiner = backgroundMiner()
      const results = await pending
      expect(results.map((r) => r.status)).toEqual(['included', 'included'])
      expect(txHashOf(results[0])).not.toBe(sent.txHash)
      expect(txHashOf(results[0])).not.toBe(replacementHash)
      expect(txHashOf(results[0])).toBe(txHashOf(results[1]))
      await logLine('bundle transaction replaced; resending its operations', mark)
      const wallet = await service.walletAddress(61)
      expect(
        await f.clients.second_chain.readContract({
          address: f.chains.second_chain.addresses.stablecoin,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [wallet, DEST],
        }),
      ).toBe(5n)
    } finally {
      stopMiner()
      await applyMiningMode(rpc(), 'auto')
    }
  })

  it('reports operations of a transaction still unconfirmed after the reconcile rounds as "not mined yet", and keeps their nonce stream', async () => {
    const impatient = f.newService({ bundler: { pollingIntervalMs: 50, receiptTimeoutMs: 200, maxReconcileRounds: 1 } })
    await applyMiningMode(rpc(), 'manual')
    try {
      const [result] = await impatient.submitUserOperations('second_chain', [approveOp(63, 'stuck')])
      expect(result).toMatchObject({ id: 'stuck', status: 'not_mined' })
      expect(result).not.toHaveProperty('blockNumber')
      expect(result?.status === 'not_mined' && failureReason(result)).toMatch(/^not mined yet/)
      // The next operation of that wallet must not reuse the unconfirmed one's nonce (stream): both land.
      const stopMiner = backgroundMiner()
      let next: UserOperationResult | undefined
      try {
        ;[next] = await impatient.submitUserOperations('second_chain', [approveOp(63, 'next')])
      } finally {
        stopMiner()
      }
      expect(next).toMatchObject({ id: 'next', status: 'included' })
      // The late one was only late: it landed too.
      const receipt = await f.clients.second_chain.getTransactionReceipt({ hash: txHashOf(result) })
      expect(receipt.status).toBe('success')
      const wallet = await impatient.walletAddress(63)
      expect(
        await f.clients.second_chain.readContract({
          address: f.chains.second_chain.addresses.stablecoin,
          abi: erc20Abi,
          functionName: 'allowance',
          args: [wallet, DEST],
        }),
      ).toBe(5n)
    } finally {
      await applyMiningMode(rpc(), 'auto')
    }
  })
})
