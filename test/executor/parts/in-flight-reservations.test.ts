import fc from 'fast-check'
import { type Address, type Hash, zeroAddress } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import type { ChainKey } from '../../../src/chain/chain-keys.ts'
import { createInFlightReservations, reservedByWallet } from '../../../daemon/executor/in-flight-reservations.ts'
import type { InFlightExecution } from '../../../src/journal/journal-records.ts'
import { createJournal, type Journal } from '../../../src/journal/journal.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { openTempStore } from '../../support/temp-store.ts'

const walletOf = (n: number) => `0x${n.toString(16).padStart(40, '0')}` as Address
const entry = (chain: ChainKey, keyNumber: number, wallet: number, spendAtoms: bigint, slug = 'proj'): InFlightExecution => ({
  keyId: `k${keyNumber}`,
  slug,
  chain,
  userIndex: wallet,
  // Mixed case: reservations are keyed on the lower-cased address.
  wallet: walletOf(wallet).replace('0x0', '0xA') as Address,
  spendAtoms: spendAtoms.toString(),
  minTokensOut: '1',
  token: zeroAddress,
  orderId: `0x${keyNumber.toString(16).padStart(64, '0')}` as Hash,
  submittedAt: 1,
  fromBlock: '10',
})

/** The journal with its in-flight reads counted. */
function counted(journal: Journal) {
  const reads: Array<ChainKey | undefined> = []
  const wrapped: Pick<Journal, 'inFlight' | 'sub'> = {
    sub: journal.sub,
    inFlight: (chain) => {
      reads.push(chain)
      return journal.inFlight(chain)
    },
  }
  return { wrapped, reads }
}

describe('createInFlightReservations', () => {
  let opened: { store: Store; remove(): Promise<void> } | undefined
  afterEach(async () => {
    await opened?.remove()
    opened = undefined
  })
  const open = async () => {
    opened = await openTempStore('in-flight-reservations')
    return { store: opened.store, journal: createJournal(opened.store) }
  }

  it('reads a chain once and holds it until an in-flight entry of that chain is written, put or deleted', async () => {
    const { store, journal } = await open()
    await store.batch([
      journal.putInFlight(entry('base', 1, 1, 100n)),
      journal.putInFlight(entry('base', 2, 1, 50n)),
      journal.putInFlight(entry('second_chain', 3, 2, 7n)),
    ])
    const { wrapped, reads } = counted(journal)
    const held = createInFlightReservations(store, wrapped)

    const first = await held.of('base')
    expect([...first.byWallet]).toEqual([[walletOf(1).replace('0x0', '0xa'), 150n]])
    expect(first.entries.map((e) => e.keyId).sort()).toEqual(['k1', 'k2'])
    expect(await held.of('base')).toBe(first)
    expect(reads).toEqual(['base'])

    // A write elsewhere (an order) keeps it; an in-flight entry of the other chain keeps it too.
    await store.batch([journal.putInFlight(entry('second_chain', 4, 3, 9n))])
    expect(await held.of('base')).toBe(first)
    expect(reads).toEqual(['base'])
    expect([...(await held.of('second_chain')).byWallet].length).toBe(2)

    // An entry of the chain written: read again, with it.
    await store.batch([journal.putInFlight(entry('base', 5, 6, 30n))])
    const second = await held.of('base')
    expect(second).not.toBe(first)
    expect(second.byWallet.get(walletOf(6).replace('0x0', '0xa'))).toBe(30n)
    // Deleted: read again, without it.
    await store.batch([journal.deleteInFlight(entry('base', 1, 1, 100n))])
    const third = await held.of('base')
    expect(third.byWallet.get(walletOf(1).replace('0x0', '0xa'))).toBe(50n)
    expect(reads).toEqual(['base', 'second_chain', 'base', 'base'])
    held.stop()
  })

  it('does not keep a read a write landed under, nor a failed read; after stop every call reads', async () => {
    const { store, journal } = await open()
    let fail = false
    const reads: ChainKey[] = []
    const held = createInFlightReservations(store, {
      sub: journal.sub,
      inFlight: (chain) => {
        reads.push(chain!)
        return fail ? Promise.reject(new Error('disk')) : journal.inFlight(chain)
      },
    })
    // Asked, then a write lands before its answer is used: the caller gets its read, the next caller reads again.
    const racing = held.of('base')
    await store.batch([journal.putInFlight(entry('base', 1, 1, 100n))])
    await racing
    expect((await held.of('base')).byWallet.size).toBe(1)
    expect(reads).toEqual(['base', 'base'])

    await store.batch([journal.deleteInFlight(entry('base', 1, 1, 100n))])
    fail = true
    await expect(held.of('base')).rejects.toThrow('disk')
    fail = false
    expect((await held.of('base')).byWallet.size).toBe(0)
    expect(reads).toEqual(['base', 'base', 'base', 'base'])

    held.stop()
    await held.of('base')
    await held.of('base')
    expect(reads.length).toBe(6)
  })

  it('always equals a fresh read of the journal, whatever the writes (property)', async () => {
    const { store, journal } = await open()
    const held = createInFlightReservations(store, journal)
    const op = fc.record({
      chain: fc.constantFrom<ChainKey>('base', 'second_chain'),
      key: fc.integer({ min: 0, max: 7 }),
      wallet: fc.integer({ min: 1, max: 4 }),
      spend: fc.bigInt({ min: 1n, max: 10n ** 12n }),
      remove: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(op, { minLength: 1, maxLength: 4 }), { maxLength: 12 }),
        fc.array(fc.boolean(), { maxLength: 12 }),
        async (batches, asks) => {
          for (const [i, batch] of batches.entries()) {
            await store.batch(
              batch.map((o) =>
                o.remove ? journal.deleteInFlight(entry(o.chain, o.key, o.wallet, o.spend)) : journal.putInFlight(entry(o.chain, o.key, o.wallet, o.spend)),
              ),
            )
            // Asked between some writes only: what is held spans several writes of the other chain.
            if (!asks[i]) continue
            for (const chain of ['base', 'second_chain'] as const) {
              expect([...(await held.of(chain)).byWallet].sort()).toEqual([...reservedByWallet(await journal.inFlight(chain))].sort())
            }
          }
          for (const chain of ['base', 'second_chain'] as const) {
            expect([...(await held.of(chain)).byWallet].sort()).toEqual([...reservedByWallet(await journal.inFlight(chain))].sort())
          }
        },
      ),
      { numRuns: 60 },
    )
    held.stop()
  })
})
