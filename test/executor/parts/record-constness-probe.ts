/**
 * Run by warm-held-ticks.test.ts in a process of its own (`node --import tsx --allow-natives-syntax`), as the daemon
 * runs: the executor's start-up warm-up, then a function optimised on a stored order record (what the held tick's code
 * is), then one more record decoded as the loader decodes it (load-orders.ts). Prints whether V8 kept that function's
 * optimised code: it is dropped when the loader's writes turn a record field it read from constant to mutable, which
 * the warm-up must have done first (docs/execution.md §3 "A book's first PATCH tick"). A probe, not a test: V8's
 * natives syntax needs the flag at the process's start to be reliable, which a vitest worker does not have.
 */
import { internOrder } from '../../../daemon/executor/intern-order.ts'
import { warmHeldTicks } from '../../../daemon/executor/warm-held-ticks.ts'
import { createInterner } from '../../../src/common/compact-strings.ts'
import type { OrderRecord } from '../../../src/domain/records.ts'

type Probe = (f: unknown, o?: unknown) => boolean
const optimise = new Function('f', 'o', '%PrepareFunctionForOptimization(f); f(o); f(o); %OptimizeFunctionOnNextCall(f); f(o);') as Probe
const optimised = new Function('f', 'return (%GetOptimizationStatus(f) & 16) !== 0') as Probe

warmHeldTicks({ orders: 300, rounds: 2, largeOrders: 600 })
// The store's JSON of an order, decoded as the store's json value encoding does (JSON.parse).
const stored = (keyId: string, spend: string): OrderRecord =>
  JSON.parse(
    JSON.stringify({
      keyId,
      slug: 'probe',
      status: 'active',
      maxSpendUsdc: spend,
      maxFdvUsdc: '250000',
      expiresInMs: 3_600_000,
      createdAt: 1_790_000_000_000,
      updatedAt: 1_790_000_000_001,
    }),
  )
const reads = (o: OrderRecord): number => o.keyId.length + o.slug.length + o.maxSpendUsdc.length + (o.maxFdvUsdc?.length ?? 0)
optimise(reads, stored('probe_1', '10'))
const before = optimised(reads)
internOrder(stored('probe_2', '20'), createInterner())
process.stdout.write(JSON.stringify({ optimisedBefore: before, optimisedAfterLoad: optimised(reads) }))
