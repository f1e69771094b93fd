import type { Hash } from 'viem'
import { describe, expect, it } from 'vitest'
import { EIP_7825_TX_GAS_CAP } from '../../../../src/chain/tx-gas-cap.ts'
import { PrebuyError } from '../../../../src/common/errors.ts'
import type { BundleItem, UserOperationOutcome } from '../../../../src/wallets/bundler/bundler.ts'
import type { SentBundle } from '../../../../src/wallets/bundler/send-transaction.ts'
import { createBundleSubmitter } from '../../../../src/wallets/bundler/submit-bundles.ts'
import { BUNDLER, fakeContext, idEncoder, item } from './bundle-fixtures.ts'

const CAP = EIP_7825_TX_GAS_CAP

/**
 * A submitter whose node enforces `nodeCap` (refusing bigger transactions as anvil does), over a simulation that
 * measures `perOperation` gas per operation; every operation sent lands included.
 */
function submitterWith(nodeCap: bigint, perOperation = 200_000n) {
  const attempts: { ids: string[]; gas: bigint }[] = []
  const simulatedGas: bigint[] = []
  const ctx = fakeContext({}, idEncoder(10))
  const submitter = createBundleSubmitter(ctx, {
    simulator: {
      simulate: async (items, _refused, callGas) => {
        simulatedGas.push(callGas)
        return { items: [...items], gasUsed: BigInt(items.length) * perOperation }
      },
    },
    blockGasLimit: { get: async () => 150_000_000n },
    chainNow: { recent: async () => ({ fees: { maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }, fromBlock: 1n }) },
    sender: {
      sendBundle: async (items, gas) => {
        attempts.push({ ids: items.map((i) => i.id), gas })
        if (gas > nodeCap) throw new PrebuyError('transaction_over_gas_cap', 'refused by the node for the cap')
        return { hash: `0x${attempts.length.toString(16).padStart(64, '0')}` as Hash, from: BUNDLER, raw: '0x', nonce: attempts.length, fromBlock: 1n, items }
      },
    },
    settler: {
      settle: async (sent: SentBundle) =>
        new Map<Hash, UserOperationOutcome>(
          sent.items.map((i: BundleItem) => [i.userOpHash, { status: 'included', userOpHash: i.userOpHash, txHash: sent.hash, blockNumber: 2n }]),
        ),
    },
    blockGasShare: 0.9,
  })
  return { submitter, attempts, simulatedGas }
}

describe('submitting bundles under the per-transaction gas cap', () => {
  it('simulates with at most the cap and sends every transaction within it', async () => {
    const { submitter, attempts, simulatedGas } = submitterWith(CAP)
    const items = Array.from({ length: 150 }, (_, n) => item(n, 2_000_000n))
    const outcomes = await submitter.submit(items)
    expect(outcomes.every((o) => o.status === 'included')).toBe(true)
    expect(simulatedGas.every((gas) => gas <= CAP)).toBe(true)
    expect(attempts.length).toBeGreaterThan(1)
    expect(attempts.every((a) => a.gas <= CAP)).toBe(true)
    expect(attempts.flatMap((a) => a.ids)).toEqual(items.map((i) => i.id))
  })

  it('a chunk the node refuses for a lower cap goes out in halves: every operation included, none failed', async () => {
    // The node allows 8M where the chain was configured with 2^24.
    const { submitter, attempts } = submitterWith(8_000_000n)
    const items = Array.from({ length: 60 }, (_, n) => item(n, 2_000_000n))
    const outcomes = await submitter.submit(items)
    expect(outcomes.map((o) => o.status)).toEqual(items.map(() => 'included'))
    const accepted = attempts.filter((a) => a.gas <= 8_000_000n)
    expect(accepted.flatMap((a) => a.ids)).toEqual(items.map((i) => i.id))
    expect(attempts.length).toBeGreaterThan(accepted.length)
  })

  it('operations that alone are over what the node allows: the submission fails typed (transaction_over_gas_cap), nothing sent', async () => {
    // Each alone needs ~2.67M: over the node's 2.6M. The executor never counts this against the orders (settle-buys).
    const { submitter, attempts } = submitterWith(2_600_000n, 400_000n)
    await expect(submitter.submit([item(0, 2_000_000n), item(1, 2_000_000n)])).rejects.toMatchObject({ code: 'transaction_over_gas_cap' })
    // The pair, then each alone (the halves go out at once, from their own accounts): nothing was accepted.
    expect(attempts.map((a) => a.ids)).toEqual([['op-0', 'op-1'], ['op-0'], ['op-1']])
  })
})
