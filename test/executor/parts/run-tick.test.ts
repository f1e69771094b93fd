import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SubmittedBuy, TickDecider } from '../../../daemon/executor/decide-tick.ts'
import { createTickRunner } from '../../../daemon/executor/run-tick.ts'
import type { BuySettler, Settlement } from '../../../daemon/executor/settle-buys.ts'
import type { ChainConfig, ChainKey } from '../../../src/chain/chain-keys.ts'
import type { SubmitOptions, UserOperationRequest, UserOperationResult } from '../../../src/wallets/wallet-service.ts'
import { type ExecutorFixture, keyIdOf, launch, SLUG, startExecutorFixture, tickAt, txHash, walletOf } from './executor-fixture.ts'

const addresses = { stablecoin: walletOf(50), weth: walletOf(51), ethUsdPool: walletOf(52) }

describe('running a tick (run-tick.ts)', () => {
  let f: ExecutorFixture
  let settled: Settlement[][]
  let asked: string[]
  const entry = {
    keyId: keyIdOf(1),
    slug: SLUG,
    chain: 'base' as const,
    userIndex: 1,
    wallet: walletOf(1),
    spendAtoms: '5',
    minTokensOut: '1',
    token: launch.token,
    orderId: txHash(77),
    submittedAt: 0,
    fromBlock: '11',
  }
  const buy: SubmittedBuy = { buy: { candidate: undefined as never, spendAtoms: 5n, minTokensOut: 1n, rank: 0 }, entry }
  const decider: TickDecider = {
    async decide(_tick, _launch, submit) {
      submit([buy], Promise.resolve())
      return [buy]
    },
  }
  const settler: BuySettler = {
    fromChain: async (e, hint) => {
      asked.push(`chain:${hint?.reason}`)
      return { entry: e, failure: hint }
    },
    fromResults: async (submitted, results) => {
      asked.push(`results:${results.length}`)
      return submitted.map((s) => ({ entry: s.entry }))
    },
    settle: async (settlements) => void settled.push([...settlements]),
  }

  beforeEach(async () => {
    f = await startExecutorFixture()
    settled = []
    asked = []
    f.ctx.chains = { base: { addresses } } as unknown as Record<ChainKey, ChainConfig>
  })
  afterEach(() => f.close())

  it('submits the decided buys as one UserOperation each, then settles their results', async () => {
    const requests: UserOperationRequest[] = []
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async submitUserOperations(_chain, given): Promise<UserOperationResult[]> {
        requests.push(...given)
        return given.map((r) => ({ status: 'included' as const, id: r.id, userOpHash: txHash(5), txHash: txHash(6), blockNumber: 12n }))
      },
    }
    await createTickRunner(f.ctx, { decider, settler })(tickAt(11, 1), launch)
    expect(requests.map((r) => [r.id, r.userIndex, r.calls.length])).toEqual([[`${keyIdOf(1)}!${SLUG}`, 1, 2]])
    expect(asked).toEqual(['results:1'])
    expect(settled).toEqual([[{ entry }]])
  })

  it("passes the launch block with the buys, so the bundler offers the launch tip in the launch's first blocks", async () => {
    const options: (SubmitOptions | undefined)[] = []
    f.ctx.wallets = {
      ...f.ctx.wallets,
      async submitUserOperations(_chain, given, submitOptions): Promise<UserOperationResult[]> {
        options.push(submitOptions)
        return given.map((r) => ({ status: 'included' as const, id: r.id, userOpHash: txHash(5), txHash: txHash(6), blockNumber: 12n }))
      },
    }
    await createTickRunner(f.ctx, { decider, settler })(tickAt(11, 1), launch)
    expect(options.map((o) => o?.launchBlock)).toEqual([BigInt(launch.blockNumber)])
    expect(options[0]?.landsIn?.number).toBe(12n)
  })

  it('settles every buy from the chain when the submission failed as a whole', async () => {
    f.ctx.wallets = {
      ...f.ctx.wallets,
      submitUserOperations: async () => Promise.reject(new Error('bundler down')),
    }
    await createTickRunner(f.ctx, { decider, settler })(tickAt(11, 1), launch)
    expect(asked).toEqual(['chain:submission failed'])
    expect(settled).toHaveLength(1)
  })

  it('does nothing once the executor is stopping, and settles nothing when nothing was submitted', async () => {
    let decided = 0
    const quiet: TickDecider = {
      decide: async () => {
        decided++
        return []
      },
    }
    await createTickRunner({ ...f.ctx, stopped: () => true }, { decider: quiet, settler })(tickAt(11, 1), launch)
    expect(decided).toBe(0)
    await createTickRunner(f.ctx, { decider: quiet, settler })(tickAt(11, 1), launch)
    expect(decided).toBe(1)
    expect(settled).toEqual([])
  })

  it('times each tick for the metrics by what its decision says it did, and a tick that threw as failed', async () => {
    const timed: Array<[string, string, boolean]> = []
    const ctx = {
      ...f.ctx,
      onTick: (chain: ChainKey, kind: string, seconds: number, afterReads: number | undefined) =>
        void timed.push([chain, seconds >= 0 ? kind : 'negative', afterReads !== undefined && afterReads <= seconds]),
    }
    const held: TickDecider = {
      decide: async (_tick, _launch, _submit, _send, seen) => {
        Object.assign(seen!, { orders: 3, acted: false, bookUse: 'reused', readAt: performance.now() })
        return []
      },
    }
    const throwing: TickDecider = {
      decide: async () => {
        throw new Error('store closed')
      },
    }
    await createTickRunner(ctx, { decider: held, settler })(tickAt(11, 1), launch)
    await createTickRunner(ctx, { decider: held, settler })({ ...tickAt(11, 1), reason: 'launch' }, launch)
    await expect(createTickRunner(ctx, { decider: throwing, settler })(tickAt(12, 1), launch)).rejects.toThrow('store closed')
    // The part after the reads: within the tick; none for a tick that threw before its reads answered.
    expect(timed).toEqual([
      ['base', 'held', true],
      ['base', 'launch', true],
      ['base', 'failed', false],
    ])
  })
})
