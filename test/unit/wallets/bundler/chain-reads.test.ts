import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createBlockGasLimit } from '../../../../src/wallets/bundler/block-gas-limit.ts'
import { createChainNowReader, NONCE_OBSERVATION_FRESH_MS } from '../../../../src/wallets/bundler/chain-now.ts'
import { fakeContext } from './bundle-fixtures.ts'

const settle = () => new Promise((resolve) => setImmediate(resolve))

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] })
  vi.setSystemTime(1_000_000)
})
afterEach(() => {
  vi.useRealTimers()
})

describe('block gas limit', () => {
  it('is read once, then served from the cache; after a minute the stale value is served while it is read again', async () => {
    let limit = 30_000_000n
    let reads = 0
    const gasLimit = createBlockGasLimit({
      getBlock: async () => {
        reads++
        return { gasLimit: limit }
      },
    } as never)
    expect(await gasLimit.get()).toBe(30_000_000n)
    expect(await gasLimit.get()).toBe(30_000_000n)
    expect(reads).toBe(1)
    limit = 60_000_000n
    vi.setSystemTime(1_000_000 + 60_001)
    expect(await gasLimit.get()).toBe(30_000_000n)
    await settle()
    expect(reads).toBe(2)
    expect(await gasLimit.get()).toBe(60_000_000n)
  })
})

describe('chain now', () => {
  const client = () => {
    const calls: string[] = []
    return {
      calls,
      client: {
        estimateFeesPerGas: async () => {
          calls.push('fees')
          return { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }
        },
        getBlockNumber: async () => {
          calls.push('block')
          return 77n
        },
        getTransactionCount: async () => {
          calls.push('nonce')
          return 5
        },
      },
    }
  }

  /** A reader over the fake client, refreshed once (its check made). */
  async function refreshedReader() {
    const { calls, client: fake } = client()
    const ctx = fakeContext(fake as never)
    const reader = createChainNowReader(ctx)
    await reader.refresh()
    return { calls, ctx, reader }
  }

  it('reads fees, block and the pending nonce together', async () => {
    const { calls, client: fake } = client()
    expect(await createChainNowReader(fakeContext(fake as never)).read()).toEqual({ fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, fromBlock: 77n })
    expect(calls.sort()).toEqual(['block', 'fees', 'nonce'])
  })

  it('serves a recent read with the fee cap doubled, checking the pending nonce unless it was read in the last 2 s with no send since; reads again after 8 s', async () => {
    const { calls, ctx, reader } = await refreshedReader()
    calls.length = 0
    // The refresh's check is fresh and nothing was sent since: no read before the send (issue 23 item 3).
    expect(await reader.recent()).toEqual({ fees: { maxFeePerGas: 20n, maxPriorityFeePerGas: 1n }, fromBlock: 77n })
    expect(calls).toEqual([])
    // Older than NONCE_OBSERVATION_FRESH_MS: checked again.
    vi.setSystemTime(1_000_000 + NONCE_OBSERVATION_FRESH_MS + 1)
    expect(await reader.recent()).toEqual({ fees: { maxFeePerGas: 20n, maxPriorityFeePerGas: 1n }, fromBlock: 77n })
    expect(calls).toEqual(['nonce'])
    calls.length = 0
    // A send of ours since the check: checked again, however fresh.
    await ctx.senders.primary.nonces.use(async () => undefined)
    await reader.recent()
    expect(calls).toEqual(['nonce'])
    calls.length = 0
    await reader.recent()
    expect(calls).toEqual([])
    vi.setSystemTime(1_000_000 + 8_001)
    expect(await reader.recent()).toEqual({ fees: { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n }, fromBlock: 77n })
    expect(calls.sort()).toEqual(['block', 'fees', 'nonce'])
  })

  it('leaves out an account with a send in progress: a check now would be ignored on it; once its send is done, it is checked', async () => {
    const { calls, ctx, reader } = await refreshedReader()
    calls.length = 0
    let finish: () => void = () => undefined
    const sending = ctx.senders.primary.nonces.use(() => new Promise<void>((resolve) => (finish = resolve)))
    while (ctx.senders.primary.nonces.mark() >= 0) await settle()
    // The only account is sending: no round trip before the send (the manager would drop the read: nonce-manager.ts).
    await reader.recent()
    expect(calls).toEqual([])
    finish()
    await sending
    // Its send done since the check: checked.
    await reader.recent()
    expect(calls).toEqual(['nonce'])
  })

  it("checks the pending nonce once for a group of sends (a split batch's collects and settle), though its first sends were sent since; another group, a group past 2 s or a failed check checks again", async () => {
    const { calls, ctx, reader } = await refreshedReader()
    // A send of ours since the refresh: the group's first send checks.
    await ctx.senders.primary.nonces.use(async () => undefined)
    calls.length = 0
    await reader.recent({ group: 'batch-1' })
    expect(calls).toEqual(['nonce'])
    // The group's next sends, each after a send of ours: no check (it would be one round trip before each collect).
    await ctx.senders.primary.nonces.use(async () => undefined)
    await reader.recent({ group: 'batch-1' })
    await ctx.senders.primary.nonces.use(async () => undefined)
    await reader.recent({ group: 'batch-1' })
    expect(calls).toEqual(['nonce'])
    // Without a group, or another group: checked.
    await reader.recent()
    expect(calls).toEqual(['nonce', 'nonce'])
    await ctx.senders.primary.nonces.use(async () => undefined)
    await reader.recent({ group: 'batch-2' })
    expect(calls).toEqual(['nonce', 'nonce', 'nonce'])
    // The group's check older than NONCE_OBSERVATION_FRESH_MS: checked again.
    await ctx.senders.primary.nonces.use(async () => undefined)
    vi.setSystemTime(1_000_000 + NONCE_OBSERVATION_FRESH_MS + 1)
    await reader.recent({ group: 'batch-2' })
    expect(calls).toEqual(['nonce', 'nonce', 'nonce', 'nonce'])
  })

  it('kept checked (a send expected soon): a send of ours is followed by a check, and the next send reads nothing before it (issue 23 item 3)', async () => {
    const { calls, ctx, reader } = await refreshedReader()
    reader.keepChecked()
    calls.length = 0
    // An approval ahead sent since the block's check: the check follows it.
    await ctx.senders.primary.nonces.use(async () => undefined)
    reader.sent()
    expect(calls).toEqual(['nonce'])
    await settle()
    // The launch's send: the check made after the approval stands; no round trip before the send.
    await reader.recent({ launchBlock: 100n, landsIn: 101n })
    expect(calls).toEqual(['nonce'])
    // Nothing sent since: no second check.
    reader.sent()
    expect(calls).toEqual(['nonce'])
    // Past NONCE_OBSERVATION_FRESH_MS after the last warm-up, a send is followed by no check: the next send checks.
    vi.setSystemTime(1_000_000 + NONCE_OBSERVATION_FRESH_MS + 1)
    await ctx.senders.primary.nonces.use(async () => undefined)
    reader.sent()
    expect(calls).toEqual(['nonce'])
    await reader.recent()
    expect(calls).toEqual(['nonce', 'nonce'])
  })

  it('not kept checked (the wallet layer alone): a send is followed by no check; the next send checks itself', async () => {
    const { calls, ctx, reader } = await refreshedReader()
    calls.length = 0
    await ctx.senders.primary.nonces.use(async () => undefined)
    reader.sent()
    expect(calls).toEqual([])
    await reader.recent()
    expect(calls).toEqual(['nonce'])
  })

  it('a check still reading, asked after our last send, is waited for by the next send, not asked again; one asked before it is not', async () => {
    const { calls, client: fake } = client()
    const release: Array<() => void> = []
    const slow = {
      ...fake,
      getTransactionCount: async () => {
        calls.push('nonce')
        await new Promise<void>((resolve) => release.push(resolve))
        return 5
      },
    }
    const ctx = fakeContext(slow as never)
    const reader = createChainNowReader(ctx)
    const refreshing = reader.refresh()
    while (release.length < 1) await settle()
    release.shift()!()
    await refreshing
    reader.keepChecked()
    await ctx.senders.primary.nonces.use(async () => undefined)
    calls.length = 0
    reader.sent()
    let sent = false
    const launchSend = reader.recent().then(() => {
      sent = true
    })
    while (release.length < 1) await settle()
    await settle()
    // The send waits for the check under way, asking none of its own.
    expect(sent).toBe(false)
    expect(calls).toEqual(['nonce'])
    release.shift()!()
    await launchSend
    expect(calls).toEqual(['nonce'])
    // A check asked before a send of ours does not stand for the send after it: that one checks too.
    const refreshing2 = reader.refresh()
    await ctx.senders.primary.nonces.use(async () => undefined)
    const next = reader.recent()
    while (release.length < 2) await settle()
    expect(calls.filter((call) => call === 'nonce')).toEqual(['nonce', 'nonce', 'nonce'])
    for (const r of release.splice(0)) r()
    await Promise.all([refreshing2, next])
  })

  it('a reorg seen (forget): the last check and a check still reading no longer stand; the next send checks', async () => {
    const { calls, client: fake } = client()
    const release: Array<() => void> = []
    let hold = false
    const slow = {
      ...fake,
      getTransactionCount: async () => {
        calls.push('nonce')
        if (hold) await new Promise<void>((resolve) => release.push(resolve))
        return 5
      },
    }
    const ctx = fakeContext(slow as never)
    const reader = createChainNowReader(ctx)
    await reader.refresh()
    calls.length = 0
    await reader.recent()
    expect(calls).toEqual([])
    reader.forget()
    await reader.recent()
    expect(calls).toEqual(['nonce'])
    // A check asked before the reorg was seen and answered after it: read again, and the send waits for that one.
    hold = true
    reader.keepChecked()
    await ctx.senders.primary.nonces.use(async () => undefined)
    calls.length = 0
    reader.sent()
    while (release.length < 1) await settle()
    reader.forget()
    release.shift()!()
    while (release.length < 1) await settle()
    expect(calls).toEqual(['nonce', 'nonce'])
    hold = false
    release.shift()!()
    await settle()
    await reader.recent()
    expect(calls).toEqual(['nonce', 'nonce'])
  })

  it("a group's sends started together share its first send's check while it reads; a failed check is made again by the next send", async () => {
    const { calls, client: fake } = client()
    let fail = false
    const release: Array<() => void> = []
    const slow = {
      ...fake,
      getTransactionCount: async () => {
        calls.push('nonce')
        if (fail) throw new Error('node down')
        await new Promise<void>((resolve) => release.push(resolve))
        return 5
      },
    }
    const ctx = fakeContext(slow as never)
    const reader = createChainNowReader(ctx)
    const refreshing = reader.refresh()
    while (release.length < ctx.senders.lanes.length) await settle()
    for (const r of release.splice(0)) r()
    await refreshing
    await ctx.senders.primary.nonces.use(async () => undefined)
    calls.length = 0
    const first = reader.recent({ group: 'batch-1' })
    const second = reader.recent({ group: 'batch-1' })
    const third = reader.recent({ group: 'batch-1' })
    while (release.length < ctx.senders.lanes.length) await settle()
    expect(calls.length).toBe(ctx.senders.lanes.length)
    for (const r of release.splice(0)) r()
    await Promise.all([first, second, third])
    expect(calls.length).toBe(ctx.senders.lanes.length)
    // A group whose check failed: its first send fails, the next one checks itself.
    fail = true
    await ctx.senders.primary.nonces.use(async () => undefined)
    calls.length = 0
    await expect(reader.recent({ group: 'batch-2' })).rejects.toThrow('node down')
    await expect(reader.recent({ group: 'batch-2' })).rejects.toThrow('node down')
    expect(calls.length).toBe(2 * ctx.senders.lanes.length)
  })
})
