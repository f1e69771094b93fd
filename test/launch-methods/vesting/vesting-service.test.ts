import type { Address } from 'viem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { OrderVesting } from '../../../src/domain/records.ts'
import type { VestingChain } from '../../../src/launch-methods/vesting/chain/vesting-chain.ts'
import { toOrderView } from '../../../src/services/order-service.ts'
import { createVestingService } from '../../../src/launch-methods/vesting/vesting-service.ts'
import { orderKey } from '../../../src/store/order-index.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import { orderRecord, projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'

/**
 * What buyers see of their vesting positions, on a real store with the chain replaced (the chain paths run end to end
 * in test/launch-methods/pooled-otc/otc-vesting.e2e.test.ts): the state from the pure schedule at the chain's time with the
 * released amount from the contract; a chain that cannot be read.
 */
const KEY = 'key_buyer'
const VESTING: Address = '0x00000000000000000000000000000000000a0c05'
const TOKEN: Address = '0x00000000000000000000000000000000000A0c02'
const position: OrderVesting = {
  chain: 'base',
  contract: VESTING,
  positionId: '7',
  tokenAddress: TOKEN,
  total: '1000',
  start: 10_000,
  lockupEnd: 10_100,
  vestingSeconds: 1_000,
}

describe('vesting service', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let now: number
  let released: bigint
  let down: boolean
  const chain: VestingChain = {
    contract: () => VESTING,
    positions: async (_, refs) => {
      if (down) throw new Error('no answer')
      expect(refs).toEqual([{ contract: VESTING, id: 7n }])
      return [{ beneficiary: VESTING, token: TOKEN, total: 1000n, released, start: 10_000n, lockupEnd: 10_100n, vestingSeconds: 1_000n }]
    },
    now: async () => now,
  }

  beforeEach(async () => {
    temp = await openTempStore('vesting-service')
    store = temp.store
    now = 10_600
    released = 100n
    down = false
    await store.batch(
      projectWriteOps(
        store,
        undefined,
        projectRecord('otc', {
          launchMethod: 'pooled_otc',
          otc: {
            offerId: '0x01',
            fdvUsdc: '1000000',
            tokenAddress: TOKEN,
            tokenSymbol: 'VST',
            tokenDecimals: 18,
            totalSupply: '1000000',
            tokenAmount: '1000',
            settleAt: 1,
            lock: { lockSeconds: 100, vestingSeconds: 1_000 },
            deposit: null,
            settlement: null,
          },
        }),
      ),
    )
    const execution = { spentUsdc: '1', tokensReceived: '1000', feeTokens: '30', txHash: '0xaa', executedAt: 1, vesting: position }
    await store.sub.orders.put(orderKey(KEY, 'otc'), orderRecord('otc', KEY, { status: 'filled', execution }))
  })
  afterEach(async () => {
    await temp.remove()
  })

  it('GET /orders: the schedule and the state at the chain’s time (released from the contract); null state when the chain cannot be read', async () => {
    const vesting = createVestingService({ store, chain })
    const page = { data: [toOrderView((await store.sub.orders.get(orderKey(KEY, 'otc')))!)], meta: { total: 1, limit: 20, nextCursor: null } }
    // Halfway through the vesting period: 500 vested, 100 of it released already.
    expect((await vesting.withVesting(page, KEY)).data[0]!.execution!.vesting).toEqual({
      contract: VESTING,
      positionId: '7',
      tokenAddress: TOKEN,
      total: '1000',
      start: new Date(10_000_000).toISOString(),
      lockupEnd: new Date(10_100_000).toISOString(),
      vestingEnd: new Date(11_100_000).toISOString(),
      vested: '500',
      locked: '500',
      released: '100',
      releasable: '400',
      asOf: new Date(10_600_000).toISOString(),
    })
    down = true
    expect((await vesting.withVesting(page, KEY)).data[0]!.execution!.vesting).toMatchObject({ vested: null, releasable: null, asOf: null, total: '1000' })
  })

  it('GET /wallet and withdrawals: per token what is locked and releasable, the positions to release; 503 when the chain cannot be read', async () => {
    const vesting = createVestingService({ store, chain })
    const entry = (await vesting.walletVesting(KEY)).base.get(TOKEN.toLowerCase())!
    expect(entry).toMatchObject({ locked: 500n, releasable: 400n, lockedUntil: new Date(11_100_000).toISOString(), asOf: 10_600 })
    expect(entry.token).toMatchObject({ symbol: 'VST', decimals: 18 })
    expect(await vesting.vestedFor(KEY, 'base', TOKEN)).toEqual({
      now: 10_600,
      releasable: [{ contract: VESTING, positionId: 7n, amount: 400n }],
      locked: [{ amount: 500n, lockupEnd: 10_100, vestingEnd: 11_100 }],
    })
    expect(await vesting.vestedFor(KEY, 'base', '0x00000000000000000000000000000000000a0c09')).toBeUndefined()
    now = 20_000
    released = 1000n
    expect((await vesting.walletVesting(KEY)).base.get(TOKEN.toLowerCase())).toMatchObject({ locked: 0n, releasable: 0n, lockedUntil: null })
    down = true
    await expect(vesting.walletVesting(KEY)).rejects.toMatchObject({ code: 'chain_unavailable' })
  })
})
