import type { Hash } from 'viem'
import { type ExecutableOrder, toExecutableOrder } from '../../src/domain/execution/executable-order.ts'
import type { OrderRecord } from '../../src/domain/records.ts'

/** What the batch planner needs of an order that no price decides: computed once per order record, then reused. */
export interface BatchEntryForm {
  /** The order parsed for the clearing (its spend and limit as bigints). */
  executable: ExecutableOrder
  /** The wallet lower-cased (the allowances' key). */
  walletLower: string
  /** The batch contract's id of the order (a keccak). */
  orderId: Hash
  /** The clearing record's row while the order spends `rowSpend` (its max spend until a tick asks for another). */
  row: [keyId: string, maxSpendAtoms: string, limitFdvAtoms: string | null, spendAtoms: string]
  rowSpend: bigint
  // What the form was computed from, compared on every use: a changed record (or a stub id function) is computed anew.
  wallet: string
  idOf: (order: Pick<OrderRecord, 'keyId' | 'slug' | 'createdAt'>) => Hash
  status: OrderRecord['status']
  maxSpendUsdc: string
  maxFdvUsdc: string | null
  expiresInMs: number
  keyId: string
  slug: string
  createdAt: number
}

export type OrderIdOf = BatchEntryForm['idOf']

/**
 * Per order record object, its batch entry's form (docs/execution.md §8, "The launch tick's CPU, ahead"). Keyed by
 * the record object, which the warm snapshot hands back unchanged until the order is written (a write loads a new
 * object: the old form is collected with it); every field the form depends on is compared again on use all the same,
 * so an object changed in place is never served a stale form. Module-level: every value is a pure function of the
 * record, the wallet and the id function (compared too), so executors sharing record objects compute the same forms.
 */
const forms = new WeakMap<OrderRecord, BatchEntryForm>()

/** Forms computed (cache misses), for the tests that count them. */
let computed = 0
export const batchEntryFormsComputed = (): number => computed

function current(form: BatchEntryForm | undefined, order: OrderRecord, wallet: string, idOf: OrderIdOf): form is BatchEntryForm {
  return (
    form !== undefined &&
    form.wallet === wallet &&
    form.idOf === idOf &&
    form.status === order.status &&
    form.maxSpendUsdc === order.maxSpendUsdc &&
    form.maxFdvUsdc === order.maxFdvUsdc &&
    form.expiresInMs === order.expiresInMs &&
    form.keyId === order.keyId &&
    form.slug === order.slug &&
    form.createdAt === order.createdAt
  )
}

/** The order's form: the one held when still current, else computed (and held). */
export function batchEntryForm(order: OrderRecord, wallet: string, idOf: OrderIdOf): BatchEntryForm {
  const held = forms.get(order)
  if (current(held, order, wallet, idOf)) return held
  computed++
  const executable = toExecutableOrder(order, wallet)
  const maxSpendAtoms = executable.maxSpend.toString()
  const form: BatchEntryForm = {
    executable,
    walletLower: wallet.toLowerCase(),
    orderId: idOf(order),
    row: [order.keyId, maxSpendAtoms, executable.limitFdv === null ? null : executable.limitFdv.toString(), maxSpendAtoms],
    rowSpend: executable.maxSpend,
    wallet,
    idOf,
    status: order.status,
    maxSpendUsdc: order.maxSpendUsdc,
    maxFdvUsdc: order.maxFdvUsdc,
    expiresInMs: order.expiresInMs,
    keyId: order.keyId,
    slug: order.slug,
    createdAt: order.createdAt,
  }
  forms.set(order, form)
  return form
}

/** The clearing record's row for the order spending `spend`: the held row when it spends what it was built for. */
export function clearingRowOf(form: BatchEntryForm, spend: bigint): BatchEntryForm['row'] {
  if (form.rowSpend !== spend) {
    form.row = [form.row[0], form.row[1], form.row[2], spend.toString()]
    form.rowSpend = spend
  }
  return form.row
}

/** Forms of every order computed now (those already current cost a lookup). A malformed order is left to the tick. */
export function prepareBatchEntryForms(orders: readonly { order: OrderRecord; wallet: string }[], idOf: OrderIdOf, from = 0, to = orders.length): void {
  for (let i = from; i < to; i++) {
    const { order, wallet } = orders[i]!
    try {
      batchEntryForm(order, wallet, idOf)
    } catch {
      // toExecutableOrder refuses a malformed amount; the tick's own call reports it where it matters.
    }
  }
}

/**
 * prepareBatchEntryForms in slices of `slice` orders with a turn of the event loop between them: run while a round
 * trip is out (the launch tick's quote), it fills the forms without holding the answer back more than one slice.
 */
export async function prepareBatchEntryFormsSoon(orders: readonly { order: OrderRecord; wallet: string }[], idOf: OrderIdOf, slice = 500): Promise<void> {
  for (let from = 0; from < orders.length; from += slice) {
    prepareBatchEntryForms(orders, idOf, from, Math.min(orders.length, from + slice))
    await new Promise((resolve) => setImmediate(resolve))
  }
}
