import { type Address, getAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { createWarmAllowances, DIRECT_READ_MAX_WALLETS, MAX_CARRIED_BLOCKS, type WarmAllowancesDeps } from '../../../daemon/executor/warm-allowances.ts'

const address = (n: number): Address => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const SPENDER = address(0xbb)

/** A chain of allowances per block, with the owners changed in each block; records every read and log query. */
function fakeChain() {
  const allowance = new Map<string, bigint>()
  const history = new Map<bigint, Map<string, bigint>>()
  const changedIn = new Map<bigint, Set<string>>()
  const reads: Array<{ wallets: string[]; block: bigint }> = []
  const logQueries: Array<[bigint, bigint]> = []
  const deps: WarmAllowancesDeps = {
    // The carry's tests: every call carries (the direct read of a few wallets has its own test below).
    directUpTo: 0,
    async read(_chain, _spender, wallets, block) {
      reads.push({ wallets: wallets.map((w) => w.toLowerCase()), block })
      const at = history.get(block)!
      return new Map(wallets.map((w) => [w.toLowerCase(), at.get(w.toLowerCase()) ?? 0n]))
    },
    async changedOwners(_chain, _spender, from, to) {
      logQueries.push([from, to])
      const out = new Set<string>()
      for (let b = from; b <= to; b++) for (const o of changedIn.get(b) ?? []) out.add(o)
      return out
    },
  }
  return {
    deps,
    reads,
    logQueries,
    /** Mines block `n` with these allowance changes. */
    mine(n: bigint, changes: Array<[Address, bigint]> = []) {
      for (const [w, v] of changes) allowance.set(w.toLowerCase(), v)
      changedIn.set(n, new Set(changes.map(([w]) => w.toLowerCase())))
      history.set(n, new Map(allowance))
    },
  }
}

describe('createWarmAllowances', () => {
  const wallets = [1, 2, 3].map(address)

  it('reads every wallet once, then carries the snapshot by the logs and re-reads only the changed owners', async () => {
    const chain = fakeChain()
    chain.mine(10n, [
      [wallets[0]!, 5n],
      [wallets[1]!, 7n],
    ])
    const warm = createWarmAllowances(chain.deps)
    const first = await warm.at('base', SPENDER, wallets, 10n)
    expect([...first]).toEqual([
      [wallets[0]!.toLowerCase(), 5n],
      [wallets[1]!.toLowerCase(), 7n],
      [wallets[2]!.toLowerCase(), 0n],
    ])
    chain.mine(11n)
    chain.mine(12n, [[wallets[1]!, 0n]])
    const later = await warm.at('base', SPENDER, wallets, 12n)
    expect(later.get(wallets[1]!.toLowerCase())).toBe(0n)
    expect(later.get(wallets[0]!.toLowerCase())).toBe(5n)
    // One log query over the gap [11, 12], one read of the single changed owner at block 12.
    expect(chain.logQueries).toEqual([[11n, 12n]])
    expect(chain.reads).toEqual([
      { wallets: wallets.map((w) => w.toLowerCase()), block: 10n },
      { wallets: [wallets[1]!.toLowerCase()], block: 12n },
    ])
  })

  it('reads a wallet it never saw, and reads nothing again for the same block', async () => {
    const chain = fakeChain()
    chain.mine(5n, [[wallets[2]!, 9n]])
    const warm = createWarmAllowances(chain.deps)
    await warm.at('base', SPENDER, wallets.slice(0, 2), 5n)
    const all = await warm.at('base', SPENDER, wallets, 5n)
    expect(all.get(wallets[2]!.toLowerCase())).toBe(9n)
    await warm.at('base', SPENDER, wallets, 5n)
    expect(chain.reads.map((r) => r.wallets.length)).toEqual([2, 1])
    expect(chain.logQueries).toEqual([])
  })

  it('reads everything again past MAX_CARRIED_BLOCKS, for an older block, and after forget', async () => {
    const chain = fakeChain()
    chain.mine(1n, [[wallets[0]!, 1n]])
    const far = 1n + MAX_CARRIED_BLOCKS + 1n
    chain.mine(far)
    chain.mine(far - 1n)
    const warm = createWarmAllowances(chain.deps)
    await warm.at('base', SPENDER, wallets, 1n)
    await warm.at('base', SPENDER, wallets, far)
    await warm.at('base', SPENDER, wallets, far - 1n)
    warm.forget('base')
    await warm.at('base', SPENDER, wallets, far - 1n)
    expect(chain.reads.map((r) => [r.block, r.wallets.length])).toEqual([
      [1n, 3],
      [far, 3],
      [far - 1n, 3],
      [far - 1n, 3],
    ])
    expect(chain.logQueries).toEqual([])
  })

  it('runs the calls of one spender one after another: a read ahead and the launch tick share one snapshot', async () => {
    const chain = fakeChain()
    chain.mine(3n, [[wallets[0]!, 4n]])
    chain.mine(4n)
    const warm = createWarmAllowances(chain.deps)
    const [ahead, tick] = await Promise.all([warm.at('base', SPENDER, wallets, 3n), warm.at('base', SPENDER, wallets, 4n)])
    expect(ahead.get(wallets[0]!.toLowerCase())).toBe(4n)
    expect(tick.get(wallets[0]!.toLowerCase())).toBe(4n)
    expect(chain.reads.map((r) => r.block)).toEqual([3n])
    expect(chain.logQueries).toEqual([[4n, 4n]])
  })

  it('a read ahead at an older block than the snapshot reads nothing; at a newer one it carries the snapshot forward', async () => {
    const chain = fakeChain()
    chain.mine(7n, [[wallets[0]!, 2n]])
    chain.mine(8n)
    const warm = createWarmAllowances(chain.deps)
    await warm.at('base', SPENDER, wallets, 8n)
    await warm.ahead('base', SPENDER, wallets, 7n)
    expect(chain.reads.map((r) => r.block)).toEqual([8n])
    chain.mine(9n)
    await warm.ahead('base', SPENDER, wallets, 9n)
    expect(chain.logQueries).toEqual([[9n, 9n]])
    expect((await warm.at('base', SPENDER, wallets, 9n)).get(wallets[0]!.toLowerCase())).toBe(2n)
    expect(chain.reads.map((r) => r.block)).toEqual([8n])
  })

  it('a failed read rejects its caller and leaves the next call to read again', async () => {
    const chain = fakeChain()
    chain.mine(2n, [[wallets[0]!, 3n]])
    let fail = true
    const warm = createWarmAllowances({
      ...chain.deps,
      read: (...args) => {
        if (fail) {
          fail = false
          return Promise.reject(new Error('node down'))
        }
        return chain.deps.read(...args)
      },
    })
    await expect(warm.at('base', SPENDER, wallets, 2n)).rejects.toThrow('node down')
    expect((await warm.at('base', SPENDER, wallets, 2n)).get(wallets[0]!.toLowerCase())).toBe(3n)
  })

  it('a tick of a few wallets reads them at its block in one call, not behind a read ahead under way, shared by the same block', async () => {
    const chain = fakeChain()
    chain.mine(5n, [[wallets[0]!, 9n]])
    chain.mine(6n, [[wallets[1]!, 4n]])
    // A read ahead of block 5 holds the queue (its read never answers here): the tick at block 6 does not wait on it.
    const held = createWarmAllowances({
      ...chain.deps,
      directUpTo: DIRECT_READ_MAX_WALLETS,
      read: (...args) => (args[3] === 5n ? new Promise<never>(() => undefined) : chain.deps.read(...args)),
    })
    void held.ahead('base', SPENDER, wallets, 5n)
    const tick = await held.at('base', SPENDER, wallets, 6n)
    expect(tick.get(wallets[0]!.toLowerCase())).toBe(9n)
    expect(tick.get(wallets[1]!.toLowerCase())).toBe(4n)
    // The tick's prefetch and its plan ask the same block: one read, no log query.
    const warm = createWarmAllowances({ ...chain.deps, directUpTo: DIRECT_READ_MAX_WALLETS })
    chain.reads.length = 0
    const [prefetch, plan] = await Promise.all([warm.at('base', SPENDER, wallets, 6n), warm.at('base', SPENDER, wallets.slice(0, 2), 6n)])
    expect(plan).toBe(prefetch)
    expect(chain.reads).toEqual([{ wallets: wallets.map((w) => w.toLowerCase()), block: 6n }])
    expect(chain.logQueries).toEqual([])
    // More wallets than the limit are carried as before.
    const many = createWarmAllowances({ ...chain.deps, directUpTo: 2 })
    await many.at('base', SPENDER, wallets, 5n)
    await many.at('base', SPENDER, wallets, 6n)
    expect(chain.logQueries).toEqual([[6n, 6n]])
    for (const bad of [-1, 1.5, Number.NaN]) expect(() => createWarmAllowances({ ...chain.deps, directUpTo: bad })).toThrow(RangeError)
  })

  it('a read ahead still queued behind a later call reads nothing: the queue holds the step under way and the newest read ahead', async () => {
    const chain = fakeChain()
    for (let n = 20n; n <= 27n; n++) chain.mine(n, n === 24n ? [[wallets[0]!, 6n]] : [])
    // The first read ahead's read is held until released: meanwhile every block's readying pass queues its own.
    let release: () => void = () => undefined
    const warm = createWarmAllowances({
      ...chain.deps,
      read: (...args) =>
        args[3] === 20n ? new Promise<void>((resolve) => (release = resolve)).then(() => chain.deps.read(...args)) : chain.deps.read(...args),
    })
    const first = warm.ahead('base', SPENDER, wallets, 20n)
    await new Promise((resolve) => setImmediate(resolve))
    const queuedAheads = [21n, 22n, 23n, 24n].map((block) => warm.ahead('base', SPENDER, wallets, block))
    // Superseded by the later ones: each resolves undefined without a read or a log query of its own.
    release()
    expect((await first)?.get(wallets[0]!.toLowerCase())).toBe(0n)
    const answers = await Promise.all(queuedAheads)
    expect(answers.slice(0, 3)).toEqual([undefined, undefined, undefined])
    // The newest one carried the snapshot 20 -> 24 in one log query, and hands the pass the block's allowances.
    expect(answers[3]?.get(wallets[0]!.toLowerCase())).toBe(6n)
    expect(chain.logQueries).toEqual([[21n, 24n]])
    expect(chain.reads.map((r) => r.block)).toEqual([20n, 24n])
    // A tick's call of a later block supersedes a read ahead queued behind the step under way; one of the same block
    // does not (the read ahead asks the waiting wallets, the tick its own book's).
    const held = createWarmAllowances({
      ...chain.deps,
      read: (...args) =>
        args[3] === 25n ? new Promise<void>((resolve) => (release = resolve)).then(() => chain.deps.read(...args)) : chain.deps.read(...args),
    })
    const underWay = held.ahead('base', SPENDER, wallets, 25n)
    await new Promise((resolve) => setImmediate(resolve))
    const readAhead = held.ahead('base', SPENDER, wallets, 26n)
    const tick = held.at('base', SPENDER, wallets, 27n)
    const sameBlockAhead = held.ahead('base', SPENDER, wallets, 27n)
    release()
    await underWay
    expect(await readAhead).toBeUndefined()
    expect((await tick).get(wallets[0]!.toLowerCase())).toBe(6n)
    expect((await sameBlockAhead)?.get(wallets[0]!.toLowerCase())).toBe(6n)
    // A read ahead of an older block than the snapshot: nothing read, nothing handed back.
    expect(await held.ahead('base', SPENDER, wallets, 25n)).toBeUndefined()
  })

  it("a tick's wait behind a read ahead that never answers is bounded: it carries the snapshot itself", async () => {
    const chain = fakeChain()
    chain.mine(30n, [[wallets[1]!, 8n]])
    chain.mine(31n)
    const warm = createWarmAllowances({
      ...chain.deps,
      queueWaitMaxMs: 5,
      // The read ahead of block 31 never answers (a node that holds the request).
      read: (...args) => (args[3] === 31n ? new Promise<never>(() => undefined) : chain.deps.read(...args)),
    })
    await warm.at('base', SPENDER, wallets, 30n)
    void warm.ahead('base', SPENDER, [...wallets, address(0x77)], 31n)
    // Under way (its log query made, its read out) before the tick comes: not superseded.
    await new Promise((resolve) => setImmediate(resolve))
    // Without the bound this call waits forever behind it; with it, it carries 30 -> 31 by the logs, reading nothing.
    const tick = await warm.at('base', SPENDER, wallets, 31n)
    expect(tick.get(wallets[1]!.toLowerCase())).toBe(8n)
    expect(chain.logQueries).toEqual([
      [31n, 31n],
      [31n, 31n],
    ])
  })

  it('a block where no owner changed serves the earlier map as it is; a wallet read later goes into a copy of its own', async () => {
    const chain = fakeChain()
    chain.mine(40n, [[wallets[0]!, 5n]])
    chain.mine(41n)
    const warm = createWarmAllowances(chain.deps)
    const at40 = await warm.at('base', SPENDER, wallets, 40n)
    // No copy of every allowance per block (~25 ms at 17,000 wallets in the held-ticks bench's profile).
    const at41 = await warm.at('base', SPENDER, wallets, 41n)
    expect(at41).toBe(at40)
    // A wallet new at block 41: read into a map of block 41's own, block 40's left as it was.
    const newcomer = address(0x55)
    const grown = await warm.at('base', SPENDER, [...wallets, newcomer], 41n)
    expect(grown).not.toBe(at40)
    expect(grown.has(newcomer.toLowerCase())).toBe(true)
    expect(at40.has(newcomer.toLowerCase())).toBe(false)
    expect(chain.reads.at(-1)).toEqual({ wallets: [newcomer.toLowerCase()], block: 41n })
  })

  it('a step of an earlier block still reading writes nothing into the map a later block now shares', async () => {
    const chain = fakeChain()
    const late = address(0x66)
    chain.mine(50n, [[late, 1n]])
    chain.mine(51n, [[late, 9n]])
    let release: () => void = () => undefined
    const held = new Promise<void>((resolve) => {
      release = resolve
    })
    let entered: () => void = () => undefined
    const reading = new Promise<void>((resolve) => {
      entered = resolve
    })
    const warm = createWarmAllowances({
      ...chain.deps,
      // A tick's wait behind the call under way is bounded (as in production), so block 51's call steps beside it.
      queueWaitMaxMs: 5,
      // Block 50's read of `late` is held until block 51 has carried the snapshot on.
      read: async (...args) => {
        if (args[3] === 50n && args[2].some((w) => w.toLowerCase() === late.toLowerCase())) {
          entered()
          await held
        }
        return chain.deps.read(...args)
      },
    })
    await warm.at('base', SPENDER, wallets, 50n)
    const step50 = warm.at('base', SPENDER, [...wallets, late], 50n)
    // Block 50's step is reading (held) when block 51 asks: no timer decides it.
    await reading
    // Block 51 (no owner of the snapshot changed: `late` is not in it yet) shares block 50's map.
    const at51 = await warm.at('base', SPENDER, wallets, 51n)
    expect(at51.has(late.toLowerCase())).toBe(false)
    release()
    const at50 = await step50
    expect(at50.get(late.toLowerCase())).toBe(1n)
    // Block 50's late answer (`late` at 1) did not land in block 51's allowances: `late` changed in block 51, so a
    // later block carrying them on would have kept the stale 1 for good.
    expect(at51.has(late.toLowerCase())).toBe(false)
    chain.mine(52n)
    expect((await warm.at('base', SPENDER, [...wallets, late], 52n)).get(late.toLowerCase())).toBe(9n)
  })

  it('a list the snapshot covered is not scanned again block after block: only the owners the logs name are looked at', async () => {
    const chain = fakeChain()
    const many = Array.from({ length: 50 }, (_, i) => address(0x1000 + i))
    chain.mine(60n)
    // The list a book's tick passes (the same array while its orders are), counting every read of an element.
    let elementReads = 0
    const list = new Proxy(many, {
      get(target, property, receiver) {
        if (typeof property === 'string' && /^\d+$/.test(property)) elementReads++
        return Reflect.get(target, property, receiver)
      },
    })
    const warm = createWarmAllowances(chain.deps)
    await warm.at('base', SPENDER, list, 60n)
    expect(elementReads).toBe(50)
    // Blocks with no change: the list is not looked at.
    for (let block = 61n; block <= 64n; block++) {
      chain.mine(block)
      await warm.at('base', SPENDER, list, block)
    }
    expect(elementReads).toBe(50)
    // An owner of the list changed: read again, found through the list's index (built once), not a scan per block.
    chain.mine(65n, [[many[7]!, 3n]])
    const at65 = await warm.at('base', SPENDER, list, 65n)
    expect(at65.get(many[7]!.toLowerCase())).toBe(3n)
    expect(chain.reads.at(-1)).toEqual({ wallets: [many[7]!.toLowerCase()], block: 65n })
    const afterIndex = elementReads
    chain.mine(66n, [[many[9]!, 4n]])
    expect((await warm.at('base', SPENDER, list, 66n)).get(many[9]!.toLowerCase())).toBe(4n)
    expect(elementReads).toBe(afterIndex)
    // Another list (a new order in the book): scanned, and its newcomer read.
    const grown = [...many, address(0x2000)]
    chain.mine(67n)
    await warm.at('base', SPENDER, grown, 67n)
    expect(chain.reads.at(-1)).toEqual({ wallets: [address(0x2000).toLowerCase()], block: 67n })
  })

  it("a read ahead of several books' wallets joined covers each book's own list: a tick asking with one scans none of it", async () => {
    const chain = fakeChain()
    chain.mine(70n)
    const counted = (wallets: Address[]) => {
      const reads = { count: 0 }
      const list = new Proxy(wallets, {
        get(target, property, receiver) {
          if (typeof property === 'string' && /^\d+$/.test(property)) reads.count++
          return Reflect.get(target, property, receiver)
        },
      })
      return { list, reads }
    }
    const bookA = counted(Array.from({ length: 20 }, (_, i) => address(0x3000 + i)))
    const bookB = counted(Array.from({ length: 30 }, (_, i) => address(0x4000 + i)))
    const warm = createWarmAllowances(chain.deps)
    await warm.ahead('base', SPENDER, [...bookA.list, ...bookB.list], 70n, [bookA.list, bookB.list])
    const joining = { a: bookA.reads.count, b: bookB.reads.count }
    chain.mine(71n)
    // The launch of book B: its tick asks with B's own list at the next block. Nothing read, none of B looked at.
    const readsBefore = chain.reads.length
    const atB = await warm.at('base', SPENDER, bookB.list, 71n)
    expect(bookB.reads.count).toBe(joining.b)
    expect(chain.reads.length).toBe(readsBefore)
    expect(bookB.list.every((w) => atB.has(w.toLowerCase()))).toBe(true)
    // Not named as covered: scanned, as before.
    chain.mine(72n)
    await warm.ahead('base', SPENDER, [...bookA.list], 72n)
    const other = counted([...bookA.list])
    await warm.at('base', SPENDER, other.list, 72n)
    expect(other.reads.count).toBe(20)
  })
})
