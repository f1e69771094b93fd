import type { OrderBrief } from '../../src/admin-api/console-events.ts'
import type { StreamSignal } from '../../src/admin-client/event-stream.ts'
import type { ConsoleEvent, LaunchesSnapshot } from '../../src/admin-api/console-events.ts'
import type { LaunchRecord, OrderEvent, PriceTick } from '../../src/journal/journal-records.ts'

const TOKEN = '0x8399000000000000000000000000000000008630'
const POOL_ID = '0x6121000000000000000000000000000000000000000000000000000000a4b1'

/** A clanker launch on base at block 100 (override any field). */
export const launchRecord = (slug: string, patch: Partial<LaunchRecord> = {}): LaunchRecord => ({
  slug,
  chain: 'base',
  launchpad: 'clanker',
  token: TOKEN,
  symbol: 'RKT',
  name: 'Rocket',
  decimals: 18,
  totalSupply: (10n ** 27n).toString(),
  paired: { kind: 'weth', address: '0x4200000000000000000000000000000000000006' } as LaunchRecord['paired'],
  poolKey: { currency0: TOKEN, currency1: '0x4200000000000000000000000000000000000006', fee: 8388608, tickSpacing: 200, hooks: TOKEN },
  poolId: POOL_ID,
  feeSources: {},
  feeSchedule: {},
  blockNumber: '100',
  blockHash: `0x${'ab'.repeat(32)}`,
  txHash: `0x${'cd'.repeat(32)}`,
  launchedAt: 1_000_000,
  ...patch,
})

/** A tick of `slug` at `block` (FDV $30k; effective cap from `fee`). */
export const priceTick = (slug: string, block: number, patch: Partial<PriceTick> = {}): PriceTick => {
  const fee = patch.totalFeeFraction ?? 0.01
  return {
    slug,
    chain: 'base',
    token: TOKEN,
    reason: 'block',
    blockNumber: String(block),
    blockHash: `0x${block.toString(16).padStart(64, '0')}`,
    logIndex: -1,
    sqrtPriceX96: '1',
    liquidity: '1',
    pairedUsdAtoms: '3000000000',
    nextBlockTimestamp: 1_000 + block,
    lpFeePips: Math.round(fee * 1e6),
    totalFeeFraction: fee,
    swapsAllowed: true,
    fdvUsdAtoms: '30000000000',
    effectiveCapAtoms: String(Math.ceil(30_000_000_000 / (1 - fee))),
    feeDecaying: fee > 0.01,
    at: 1_000_000 + block * 1000,
    ...patch,
  }
}

export const orderBrief = (slug: string, keyId: string, patch: Partial<OrderBrief> = {}): OrderBrief => ({
  keyId,
  slug,
  status: 'active',
  maxSpendUsdc: '100',
  maxFdvUsdc: '50000',
  updatedAt: 1,
  ...patch,
})

export const orderEvent = (slug: string, keyId: string, to: OrderEvent['to'], patch: Partial<OrderEvent> = {}): OrderEvent => ({
  keyId,
  slug,
  from: to === 'executing' ? 'active' : 'executing',
  to,
  at: 1_002_000,
  ...patch,
})

/** A launches-scope snapshot with nothing in it (override any list). */
export const launchesSnapshot = (patch: Partial<LaunchesSnapshot> = {}): LaunchesSnapshot => ({
  type: 'snapshot',
  scope: 'launches',
  at: 1,
  projects: [],
  launches: [],
  ticks: [],
  orders: [],
  decisions: [],
  candidates: [],
  actions: [],
  ...patch,
})

let nextId = 0
/** Stream signals carrying these events. */
export const events = (...list: ConsoleEvent[]): StreamSignal[] => list.map((event) => ({ type: 'event', id: `t-${nextId++}`, event }))
