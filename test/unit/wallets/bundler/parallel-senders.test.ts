import { type Hash, keccak256, parseTransaction, recoverTransactionAddress, type TransactionSerialized } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createSenderPool } from '../../../../src/wallets/bundler/sender-pool.ts'
import { createTransactionSender } from '../../../../src/wallets/bundler/send-transaction.ts'
import { ENTRY_POINT, fakeContext } from './bundle-fixtures.ts'

const keys = [1, 2, 3].map((n) => privateKeyToAccount(`0x${n.toString(16).padStart(64, '0')}`))
const now = { fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, fromBlock: 5n }

describe('sending from several sender accounts', () => {
  it('sends transactions started together from different accounts, each with its own nonce, none waiting for another', async () => {
    let inFlight = 0
    let most = 0
    const raws: TransactionSerialized[] = []
    const client = {
      // A slow node: each broadcast takes a while; with one account they would follow each other.
      sendRawTransaction: async ({ serializedTransaction }: { serializedTransaction: TransactionSerialized }) => {
        inFlight++
        most = Math.max(most, inFlight)
        await new Promise((r) => setTimeout(r, 20))
        inFlight--
        raws.push(serializedTransaction)
        return keccak256(serializedTransaction) as Hash
      },
    }
    const base = fakeContext(client as never)
    const senders = createSenderPool(keys, { pendingNonce: async (address) => (address === keys[1]!.address ? 40 : 7) })
    const sender = createTransactionSender({ ...base, senders }, { read: async () => now })
    const sent = await Promise.all([0, 1, 2, 3].map(() => sender.send(ENTRY_POINT, '0x', 100_000n, now, {})))
    expect(most).toBe(3)
    expect(sent.map((s) => s.from)).toEqual([keys[0]!.address, keys[1]!.address, keys[2]!.address, keys[0]!.address])
    expect(sent.map((s) => s.nonce)).toEqual([7, 40, 7, 8])
    // Each transaction is signed by the account it names.
    for (const [i, s] of sent.entries()) {
      expect(await recoverTransactionAddress({ serializedTransaction: s.raw as TransactionSerialized })).toBe(s.from)
      expect(parseTransaction(s.raw).nonce).toBe(sent[i]!.nonce)
    }
    // 'primary' always signs with the bundler EOA (contracts that name it as their operator).
    const primary = await sender.send(ENTRY_POINT, '0x', 100_000n, now, {}, 'primary')
    expect(primary.from).toBe(keys[0]!.address)
    expect(primary.nonce).toBe(9)
  })
})
