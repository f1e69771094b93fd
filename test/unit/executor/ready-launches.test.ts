import { describe, expect, it } from 'vitest'
import type { ReadiedClearings } from '../../../daemon/executor/readied-clearing.ts'
import { type BookToReady, createReadyLaunches, type ReadyPass } from '../../../daemon/executor/ready-launches.ts'

/** Books that are only slugs: the readied clearings are recorded, not computed (their rules: readied-clearing.test.ts). */
const books = (n: number): BookToReady[] =>
  Array.from({ length: n }, (_, i) => ({ slug: `book-${i}`, orders: [], candidates: [], walletsLower: [], balances: [] }))

function fixture(budget?: { ms: number; clock: () => number }, reservations: () => Promise<Map<string, bigint>> = async () => new Map()) {
  const readied: Array<{ slug: string; block: bigint; allowances: ReadonlyMap<string, bigint> }> = []
  const batches = {
    readyClearing: (_chain, slug, block, input) => {
      readied.push({ slug, block, allowances: input.allowances })
      return undefined
    },
    readied: () => undefined,
    forgetReadied: () => undefined,
  } as ReadiedClearings
  const ctx = {
    batchBuyers: { base: '0x00000000000000000000000000000000000000bb' },
    ticking: new Map(),
    orders: {},
    policy: {},
    now: () => 0,
    log: { debug: () => undefined },
  } as unknown as Parameters<typeof createReadyLaunches>[0]
  return { launches: createReadyLaunches(ctx, batches, reservations, budget), readied }
}

const pass = (allowances = new Map<string, bigint>(), stillWanted = () => true): ReadyPass => ({ allowances, stillWanted })

describe('readyLaunches (docs/execution.md §8, "The readying pass that never ended")', () => {
  it("checks each readied walk against the pass's own inputs as its launch tick will (tickIsReadied): a walk its inputs refuse is logged", async () => {
    const order = { keyId: 'k1' }
    const book: BookToReady = {
      slug: 'p',
      orders: [{ order } as never],
      candidates: [{ order, balanceAtoms: 5n } as never],
      walletsLower: ['0xaa'],
      balances: [5n],
    }
    const warned: string[] = []
    const walkOn = (balance: bigint) =>
      ({
        walked: {},
        walletsLower: book.walletsLower,
        inputs: { book: book.orders, balances: [balance], reserved: [], allowances: [7n], maxBuyers: 50 },
      }) as never
    for (const [balance, expected] of [
      [5n, []],
      // A walk readied on another balance than the book's candidate carries: its launch tick would refuse it.
      [6n, ['p']],
    ] as const) {
      warned.length = 0
      const launches = createReadyLaunches(
        {
          batchBuyers: { base: '0x00000000000000000000000000000000000000bb' },
          ticking: new Map(),
          orders: {},
          policy: {},
          now: () => 0,
          log: { debug: () => undefined, warn: (fields: { slug: string }) => void warned.push(fields.slug) },
        } as unknown as Parameters<typeof createReadyLaunches>[0],
        { readyClearing: () => walkOn(balance), readied: () => undefined, forgetReadied: () => undefined } as unknown as ReadiedClearings,
        async () => new Map(),
      )
      await launches.readyLaunches('base', 7n, [book], pass(new Map([['0xaa', 7n]])))
      expect(warned).toEqual(expected)
    }
  })

  it("readies every book on the pass's own allowances, reading nothing", async () => {
    const { launches, readied } = fixture()
    const allowances = new Map([['0xaa', 5n]])
    await launches.readyLaunches('base', 7n, books(3), pass(allowances))
    expect(readied.map((r) => r.slug)).toEqual(['book-0', 'book-1', 'book-2'])
    expect(readied.every((r) => r.allowances === allowances && r.block === 7n)).toBe(true)
  })

  it('one readying at a time per chain: a block arriving meanwhile skips it', async () => {
    let release: (value: Map<string, bigint>) => void = () => undefined
    const held = new Promise<Map<string, bigint>>((resolve) => {
      release = resolve
    })
    const { launches, readied } = fixture(undefined, () => held)
    const first = launches.readyLaunches('base', 7n, books(2), pass())
    // The next block's pass while the first is under way: returns at once, readies nothing.
    await launches.readyLaunches('base', 8n, books(2), pass())
    expect(readied).toEqual([])
    release(new Map())
    await first
    expect(readied.map((r) => r.block)).toEqual([7n, 7n])
    // Once done, the next block's pass readies again.
    await launches.readyLaunches('base', 9n, books(1), pass())
    expect(readied.map((r) => r.block)).toEqual([7n, 7n, 9n])
  })

  it('stops at its time budget and the next readying starts where it stopped; stops once a launch was processed', async () => {
    // A clock that moves 1 ms a look: a budget of 1.5 ms allows the first book and one more look.
    let now = 0
    const { launches, readied } = fixture({ ms: 1.5, clock: () => now++ })
    const five = books(5)
    for (let block = 1n; block <= 3n; block++) await launches.readyLaunches('base', block, five, pass())
    expect(readied.map((r) => r.slug)).toEqual(['book-0', 'book-1', 'book-2', 'book-3', 'book-4', 'book-0'])
    // A launch processed since the pass began: nothing more is readied.
    const stopped = fixture()
    await stopped.launches.readyLaunches(
      'base',
      1n,
      five,
      pass(new Map(), () => false),
    )
    expect(stopped.readied).toEqual([])
  })
})
