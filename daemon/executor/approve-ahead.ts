import { type Address, encodeFunctionData, erc20Abi, type PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { readStablecoinAllowances } from '../../src/chain/read-stablecoin-allowances.ts'
import type { Logger } from '../../src/common/logger.ts'
import { del, put, type Store } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import type { UserOperationRequest, UserOperationResult, WalletService } from '../../src/wallets/wallet-service.ts'
import { createApprovalAmounts, type WantedApproval } from './approval-amounts.ts'
import type { LoadedOrder } from './warm-books.ts'

/** Most approvals one pass sends (the rest on later passes, one per block), as MAX_DEPLOYS_AHEAD bounds deployments. */
export const MAX_APPROVALS_AHEAD = 200

/**
 * Call gas of one approval operation: `stablecoin.approve` through the wallet's execute (the real USDC, FiatToken v2.2
 * behind its proxy, writes one allowance slot: under 60k from zero). The zero-fee operations of our bundler cost only
 * the gas used, so the limit is generous; it bounds how many fit one handleOps under the 2^24 cap (~60 per transaction).
 */
export const APPROVE_CALL_GAS = 100_000n

/** Blocks between two code reads of a batch buyer not deployed yet (`prebuy contracts deploy` may put it there). */
export const DEPLOYED_RECHECK_BLOCKS = 50n

/** Blocks a wallet waits after a failed approval before the next attempt (an external bundler refuses zero-fee ones). */
export const APPROVAL_RETRY_BLOCKS = 25n

/** One wallet's approval as recorded: that it may hold an allowance to `spender` (written before the approval is sent). */
export interface BatchApprovalRecord {
  chain: ChainKey
  spender: Address
  userIndex: number
  wallet: Address
  /** Atoms last sent in an approval (what the wallet allows once it landed). */
  amount: string
  updatedAt: number
}

export interface ApprovalPassInput {
  blockNumber: bigint
  /** Every warm project of the chain: slug -> its active orders. */
  orders: ReadonlyMap<string, readonly LoadedOrder[]>
  /** Launched projects (their orders are being bought: no approval counts them, and their buyers are left alone). */
  launched: ReadonlySet<string>
  /** Funded wallets with an active order in a waiting project and none in a launched one: approved up to their caps. */
  waiting: ReadonlySet<number>
  /** Wallets with an order in a launched project: a batch may be pulling from them now; not touched, re-read later. */
  buying: ReadonlySet<number>
  /** Asked right before the approvals are sent: false sends none (a launch was seen meanwhile). */
  stillWanted(): boolean
}

export interface ApprovalPass {
  /** Allowances read on chain in this pass (one multicall). */
  read: number
  /** Approvals sent (their outcome arrives later: `settled()`). */
  sent: number
}

export interface BatchApprovals {
  /**
   * One pass on a chain, after the wallets were readied: every wallet with an active order in a project waiting to
   * launch allows the chain's batch buyer exactly the sum of those orders' caps (atoms); a wallet recorded with an
   * approval and no such order any more is set to 0. Only where the allowance on chain differs (read in one multicall,
   * then known until the wallet could have changed: a launch pulling from it, a reorg, a failed approval). A wallet is
   * approved only once it was a target at an earlier pass too (as deployments ahead: an approval sent for a wallet
   * that appeared in the block before a launch could still be pending at it). Returns once the approvals are sent.
   */
  pass(chain: ChainKey, input: ApprovalPassInput): Promise<ApprovalPass>
  /** Forgets the allowances known on a chain (a reorg): the next pass reads them again. */
  forget(chain: ChainKey): void
  /** Resolves once every approval sent so far has its outcome recorded. */
  settled(): Promise<void>
}

export interface BatchApprovalsDeps {
  store: Store
  chains: Record<ChainKey, ChainConfig>
  clients: Partial<Record<ChainKey, PublicClient>>
  /** The batch buyer each chain buys through; a chain without one (or without its code yet) gets no approvals. */
  batchBuyers: Partial<Record<ChainKey, Address>>
  wallets: Pick<WalletService, 'submitUserOperations'>
  log: Logger
  stopped(): boolean
  now?: () => number
}

interface ChainState {
  deployed: boolean
  /** The block of the last code read that found no batch buyer. */
  missingAt?: bigint
  /** Caps summed per wallet, each project's sums cached while its orders are unchanged. */
  amounts: ReturnType<typeof createApprovalAmounts>
  /** Wallets recorded as possibly holding an allowance (loaded from the store once, then kept in step with it). */
  records?: Map<number, Address>
  /** Allowance on chain as last read or approved, while nothing could have changed it since. */
  known: Map<number, bigint>
  /** Approvals sent and without an outcome yet. */
  pending: Set<number>
  /** Of those, wallets a batch may have pulled from (or a reorg hit) meanwhile: their outcome says nothing exact. */
  stale: Set<number>
  retryAt: Map<number, bigint>
  /** Targets of the previous pass: only these may be approved now. */
  previous: Set<number>
}

const SUBLEVEL = 'batchApprovals'
const prefixOf = (chain: ChainKey, spender: Address) => `${chain}!${spender.toLowerCase()}!`
const keyOf = (chain: ChainKey, spender: Address, userIndex: number) => `${prefixOf(chain, spender)}${String(userIndex).padStart(10, '0')}`

/**
 * Approvals ahead of launches: the batch buyer (PrebuyBatchBuyer) pulls every buyer's spend with transferFrom, so each
 * wallet allows it what its orders may spend before the launch. Sponsored as every operation of our bundler (zero fees,
 * the bundler EOA pays the gas; handleOps transactions packed under the per-transaction gas cap). An approval does not
 * lock funds: the wallet's withdrawals are untouched, and a wallet that withdrew is skipped by the batch.
 *
 * The store keeps which wallets may hold an allowance (`batchApprovals`, this module its one writer): the record is
 * written before an approval is sent and deleted once an approval of 0 landed, so a wallet whose orders were all
 * deleted, even while the daemon was down, is found and revoked.
 */
export function createBatchApprovals(deps: BatchApprovalsDeps): BatchApprovals {
  const { store, log } = deps
  const records = store.sublevel<BatchApprovalRecord>(SUBLEVEL)
  const states = new Map<ChainKey, ChainState>()
  const inFlight = new Set<Promise<void>>()
  const now = deps.now ?? Date.now
  const stateOf = (chain: ChainKey): ChainState => {
    let state = states.get(chain)
    if (!state) {
      state = {
        deployed: false,
        amounts: createApprovalAmounts(),
        known: new Map(),
        pending: new Set(),
        stale: new Set(),
        retryAt: new Map(),
        previous: new Set(),
      }
      states.set(chain, state)
    }
    return state
  }

  async function deployed(spender: Address, client: PublicClient, state: ChainState, blockNumber: bigint): Promise<boolean> {
    if (state.deployed) return true
    if (state.missingAt !== undefined && blockNumber >= state.missingAt && blockNumber < state.missingAt + DEPLOYED_RECHECK_BLOCKS) return false
    const code = await client.getCode({ address: spender })
    state.deployed = code !== undefined && code !== '0x'
    if (!state.deployed) state.missingAt = blockNumber
    return state.deployed
  }

  async function recordsOf(chain: ChainKey, spender: Address, state: ChainState): Promise<Map<number, Address>> {
    if (!state.records) {
      const rows = await readAll(records, prefixOf(chain, spender))
      state.records = new Map(rows.map(({ value }) => [value.userIndex, value.wallet]))
    }
    return state.records
  }

  /**
   * A batch may pull from a buying wallet at any block: what was known of its allowance is not any more, and an approval
   * of it in flight says nothing exact when it lands. Walks whichever side is smaller: a launched book's buyers are
   * every block's `buying` (17,000 in the held-ticks bench), while what is known of them is forgotten at the first block
   * and stays so (targets never hold a buying wallet), so the walk is over the few known and pending wallets, not every
   * buyer every block (1.6 ms of each block, 8 ms at the first after the launch, inside the held book's tick: a trace of
   * the held-ticks bench, 2026-11-29).
   */
  function forgetBuying(state: ChainState, buying: ReadonlySet<number>): void {
    if (state.known.size + state.pending.size < buying.size) {
      for (const userIndex of state.known.keys()) if (buying.has(userIndex)) state.known.delete(userIndex)
      for (const userIndex of state.pending) if (buying.has(userIndex)) state.stale.add(userIndex)
      return
    }
    for (const userIndex of buying) {
      state.known.delete(userIndex)
      if (state.pending.has(userIndex)) state.stale.add(userIndex)
    }
  }

  function targetsOf(input: ApprovalPassInput, wanted: Map<number, WantedApproval>, recorded: Map<number, Address>): Map<number, WantedApproval> {
    const targets = new Map<number, WantedApproval>()
    for (const userIndex of input.waiting) {
      const want = wanted.get(userIndex)
      if (want && !input.buying.has(userIndex)) targets.set(userIndex, want)
    }
    for (const [userIndex, wallet] of recorded) {
      if (targets.has(userIndex) || input.buying.has(userIndex)) continue
      targets.set(userIndex, { wallet, amount: wanted.get(userIndex)?.amount ?? 0n })
    }
    return targets
  }

  function settle(
    chain: ChainKey,
    spender: Address,
    blockNumber: bigint,
    sent: readonly [number, WantedApproval][],
    results: UserOperationResult[],
  ): Promise<void> {
    const state = stateOf(chain)
    const revoked: number[] = []
    const failed: Array<{ userIndex: number; result: UserOperationResult | undefined }> = []
    sent.forEach(([userIndex, { amount }], i) => {
      const result = results[i]
      const stale = state.stale.delete(userIndex)
      if (result?.status === 'included') {
        if (stale) state.known.delete(userIndex)
        else state.known.set(userIndex, amount)
        state.retryAt.delete(userIndex)
        if (amount === 0n) revoked.push(userIndex)
        return
      }
      state.known.delete(userIndex)
      state.retryAt.set(userIndex, blockNumber + APPROVAL_RETRY_BLOCKS)
      failed.push({ userIndex, result })
    })
    // One line per pass, not per wallet: a refusal for all of them (a bundler that will not sponsor) is one event.
    if (failed.length > 0) {
      log.warn(
        { chain, failed: failed.length, of: sent.length, first: failed[0] },
        'approving the batch buyer ahead failed; retried later (until then those wallets buy without the batch)',
      )
    }
    for (const userIndex of revoked) state.records?.delete(userIndex)
    if (revoked.length === 0 || deps.stopped()) return Promise.resolve()
    return store.batch(revoked.map((userIndex) => del(records, keyOf(chain, spender, userIndex))))
  }

  return {
    async pass(chain, input) {
      const none = { read: 0, sent: 0 }
      const spender = deps.batchBuyers[chain]
      const client = deps.clients[chain]
      if (!spender || !client || deps.stopped()) return none
      const state = stateOf(chain)
      if (!(await deployed(spender, client, state, input.blockNumber))) return none
      const recorded = await recordsOf(chain, spender, state)
      const wanted = state.amounts.over([...input.orders].filter(([slug]) => !input.launched.has(slug)))
      forgetBuying(state, input.buying)
      const targets = targetsOf(input, wanted, recorded)
      const eligible = [...targets].filter(
        ([userIndex]) => state.previous.has(userIndex) && !state.pending.has(userIndex) && (state.retryAt.get(userIndex) ?? 0n) <= input.blockNumber,
      )
      state.previous = new Set(targets.keys())
      // A revocation is read first: a batch may have pulled the allowance to 0 since it was known (its orders filled
      // between two passes, never seen buying), and an approve(0) of an allowance already 0 is a sponsored operation
      // for nothing (observed: one per buyer after every batch launch, 2026-11-26).
      for (const [userIndex, { amount }] of eligible) if (amount === 0n) state.known.delete(userIndex)
      const unknown = eligible.filter(([userIndex]) => !state.known.has(userIndex))
      if (unknown.length > 0) {
        const { multicall3, stablecoin } = deps.chains[chain].addresses
        const read = await readStablecoinAllowances(
          client,
          multicall3,
          stablecoin,
          spender,
          unknown.map(([, t]) => t.wallet),
        )
        for (const [userIndex, { wallet }] of unknown) state.known.set(userIndex, read.get(wallet.toLowerCase()) ?? 0n)
      }
      // Recorded wallets already at 0 with nothing wanted (a revocation whose record a stop kept): nothing to remember.
      const clean = eligible.filter(([userIndex, { amount }]) => amount === 0n && state.known.get(userIndex) === 0n && recorded.has(userIndex))
      if (clean.length > 0) {
        await store.batch(clean.map(([userIndex]) => del(records, keyOf(chain, spender, userIndex))))
        for (const [userIndex] of clean) recorded.delete(userIndex)
      }
      const toSend = eligible.filter(([userIndex, { amount }]) => state.known.get(userIndex) !== amount).slice(0, MAX_APPROVALS_AHEAD)
      if (toSend.length === 0 || !input.stillWanted() || deps.stopped()) return { read: unknown.length, sent: 0 }
      // Recorded first: a crash after sending leaves a record, never an allowance nobody knows of.
      const fresh = toSend.filter(([, { amount }]) => amount > 0n)
      if (fresh.length > 0) {
        const at = now()
        await store.batch(
          fresh.map(([userIndex, { wallet, amount }]) =>
            put(records, keyOf(chain, spender, userIndex), { chain, spender, userIndex, wallet, amount: amount.toString(), updatedAt: at }),
          ),
        )
        for (const [userIndex, { wallet }] of fresh) recorded.set(userIndex, wallet)
      }
      const { stablecoin } = deps.chains[chain].addresses
      const requests: UserOperationRequest[] = toSend.map(([userIndex, { amount }]) => ({
        userIndex,
        id: `batch-approval:${chain}:${userIndex}`,
        calls: [{ to: stablecoin, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] }) }],
        callGasLimit: APPROVE_CALL_GAS,
      }))
      for (const [userIndex] of toSend) state.pending.add(userIndex)
      // Not awaited: the readying of the next blocks goes on (as deployments ahead, sent and left to land); a wallet
      // with an approval in flight is not approved again until its outcome is known.
      const run: Promise<void> = deps.wallets
        .submitUserOperations(chain, requests)
        .then((results) => settle(chain, spender, input.blockNumber, toSend, results))
        .catch((error: unknown) => {
          for (const [userIndex] of toSend) {
            state.stale.delete(userIndex)
            state.known.delete(userIndex)
            state.retryAt.set(userIndex, input.blockNumber + APPROVAL_RETRY_BLOCKS)
          }
          log.warn({ err: error, chain, wallets: toSend.length }, 'approvals of the batch buyer ahead were not sent; retried later')
        })
        .finally(() => {
          for (const [userIndex] of toSend) state.pending.delete(userIndex)
          inFlight.delete(run)
        })
      inFlight.add(run)
      log.info({ chain, spender, approvals: toSend.length, revocations: toSend.filter(([, t]) => t.amount === 0n).length }, 'approving the batch buyer ahead')
      return { read: unknown.length, sent: toSend.length }
    },
    forget(chain) {
      const state = states.get(chain)
      if (!state) return
      state.known.clear()
      for (const userIndex of state.pending) state.stale.add(userIndex)
    },
    async settled() {
      while (inFlight.size > 0) await Promise.all([...inFlight])
    },
  }
}
