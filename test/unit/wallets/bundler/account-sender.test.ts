import { type Hash, keccak256, parseTransaction, type TransactionSerialized } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createSenderPool } from '../../../../src/wallets/bundler/sender-pool.ts'
import { createTransactionSender } from '../../../../src/wallets/bundler/send-transaction.ts'
import { ENTRY_POINT, fakeContext } from './bundle-fixtures.ts'

const keys = [1, 2, 3].map((n) => privateKeyToAccount(`0x${n.toString(16).padStart(64, '0')}`))
const now = { fees: { maxFeePerGas: 1_000n, maxPriorityFeePerGas: 100n }, fromBlock: 5n }

describe('sending from a named sender account with a tip ceiling (the split batch: collects, then the settle below them)', () => {
  const setup = () => {
    const client = {
      sendRawTransaction: async ({ serializedTransaction }: { serializedTransaction: TransactionSerialized }) => keccak256(serializedTransaction) as Hash,
    }
    const senders = createSenderPool(keys, { pendingNonce: async () => 3 })
    return createTransactionSender({ ...fakeContext(client as never), senders }, { read: async () => now })
  }

  it('signs with the account named, on its own nonces in call order, and reports the tip it offered', async () => {
    const sender = setup()
    const a = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: keys[2]!.address })
    const b = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: keys[2]!.address })
    expect([a.from, b.from]).toEqual([keys[2]!.address, keys[2]!.address])
    expect([a.nonce, b.nonce]).toEqual([3, 4])
    expect(a.maxPriorityFeePerGas).toBe(100n)
  })

  it('offers at most tipAtMost per gas (the fee cap lowered by the same amount), never under 1 wei; a higher ceiling changes nothing', async () => {
    const sender = setup()
    const lowered = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: keys[1]!.address, tipAtMost: 40n })
    const tx = parseTransaction(lowered.raw)
    expect(tx.maxPriorityFeePerGas).toBe(40n)
    expect(tx.maxFeePerGas).toBe(940n)
    expect(lowered.maxPriorityFeePerGas).toBe(40n)
    const floor = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: keys[1]!.address, tipAtMost: 0n })
    expect(parseTransaction(floor.raw).maxPriorityFeePerGas).toBe(1n)
    const above = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: keys[1]!.address, tipAtMost: 500n })
    expect(parseTransaction(above.raw).maxPriorityFeePerGas).toBe(100n)
  })

  it('refuses an account that is not one of the pool', async () => {
    const sender = setup()
    const stranger = privateKeyToAccount(`0x${'9'.padStart(64, '0')}`).address
    await expect(sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, { account: stranger })).rejects.toThrow(/not one of this chain's sender accounts/)
  })
})
