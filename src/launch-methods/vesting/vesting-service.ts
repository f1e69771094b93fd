import { getAddress, type Address } from 'viem'
import { CHAIN_KEYS, type ChainKey } from '../../chain/chain-keys.ts'
import { PrebuyError } from '../../common/errors.ts'
import { vestingView } from './domain/vesting-view.ts'
import { vestingState } from './domain/vesting-schedule.ts'
import type { OrderVesting } from '../../domain/records.ts'
import type { VestingChain } from './chain/vesting-chain.ts'
import type { Store } from '../../store/open-store.ts'
import { readAll } from '../../store/paginate.ts'
import type { TokenInfo, VestedTokens } from '../../wallets/wallet-service.ts'
import type { OrderPage } from '../../services/order-service.ts'

/** What a wallet holds in vesting positions of one token (GET /wallet `vesting` of a balance entry). Atomic amounts. */
export interface TokenVesting {
  token: TokenInfo
  /** Not vested yet. */
  locked: bigint
  /** Vested and not released: a withdrawal releases it in the same operation. */
  releasable: bigint
  /** When the last of it vests (ISO 8601); null once nothing is locked. */
  lockedUntil: string | null
  positions: Array<{ contract: Address; id: bigint; releasable: bigint; locked: bigint; lockupEnd: number; vestingEnd: number }>
  /** The chain's time the state is computed at, unix seconds. */
  asOf: number
}

export interface VestingService {
  /** A GET /orders page with each filled order's vesting position and its state now (execution.vesting). */
  withVesting(page: OrderPage, keyId: string): Promise<OrderPage>
  /** The key's vesting positions by chain and token (lower-case address), with their state at the chain's time. */
  walletVesting(keyId: string): Promise<Record<ChainKey, Map<string, TokenVesting>>>
  /** What a withdrawal of `token` may release first: the positions with something releasable, and what stays locked. */
  vestedFor(keyId: string, chain: ChainKey, token: string): Promise<VestedTokens | undefined>
}

/**
 * Lock and vesting seen from the buyer: positions are recorded on the filled orders (their ids come from the
 * settlement's PositionCreated logs), the released amount is read from the vesting contract (releases are chain
 * transactions), and the state follows from the pure schedule at the chain's latest block time, the time the contract
 * computes `releasable` at; so what the service shows is what a release would pay.
 */
export function createVestingService(deps: { store: Store; chain?: VestingChain }): VestingService {
  const { store, chain } = deps

  /** The key's filled orders' positions, with their project's slug. */
  const filledPositions = async (keyId: string): Promise<Array<readonly [string, OrderVesting]>> =>
    (await readAll(store.sub.orders, `${keyId}!`)).flatMap((e) =>
      e.value.status === 'filled' && e.value.execution?.vesting ? [[e.value.slug, e.value.execution.vesting] as const] : [],
    )

  /** Released amounts from the contract and the chain's time, per chain; null for a chain that cannot be read. */
  const chainStates = async (positions: readonly OrderVesting[]) => {
    const out = new Map<OrderVesting, { now: number; released: bigint } | null>()
    for (const key of CHAIN_KEYS) {
      const here = positions.filter((p) => p.chain === key)
      if (here.length === 0) continue
      try {
        if (!chain) throw new Error('no vesting chain')
        const [now, onChain] = await Promise.all([
          chain.now(key),
          chain.positions(
            key,
            here.map((p) => ({ contract: p.contract as Address, id: BigInt(p.positionId) })),
          ),
        ])
        for (const [i, p] of here.entries()) out.set(p, { now, released: onChain[i]!.released })
      } catch {
        for (const p of here) out.set(p, null)
      }
    }
    return out
  }

  const tokenInfoOf = async (slugs: Map<string, string>, tokenAddress: string): Promise<TokenInfo> => {
    const project = await store.sub.projects.get(slugs.get(tokenAddress.toLowerCase()) ?? '')
    const symbol = project?.otc?.tokenSymbol ?? project?.launch?.symbol ?? '?'
    const decimals = project?.otc?.tokenDecimals ?? project?.launch?.decimals ?? 18
    return { address: getAddress(tokenAddress), symbol, name: project?.launch?.name ?? symbol, decimals }
  }

  return {
    async withVesting(page, keyId) {
      if (!page.data.some((o) => o.execution?.vesting)) return page
      const records = await filledPositions(keyId)
      const bySlug = new Map(records)
      const states = await chainStates(records.map(([, p]) => p))
      return {
        ...page,
        data: page.data.map((order) => {
          const position = bySlug.get(order.slug)
          if (!order.execution?.vesting || !position) return order
          return { ...order, execution: { ...order.execution, vesting: vestingView(position, states.get(position) ?? null) } }
        }),
      }
    },

    async walletVesting(keyId) {
      const out = Object.fromEntries(CHAIN_KEYS.map((k) => [k, new Map<string, TokenVesting>()])) as Record<ChainKey, Map<string, TokenVesting>>
      const filled = await filledPositions(keyId)
      const slugs = new Map(filled.map(([slug, p]) => [p.tokenAddress.toLowerCase(), slug] as const))
      const records = filled.map(([, p]) => p)
      const states = await chainStates(records)
      for (const position of records) {
        const state = states.get(position)
        // A chain that cannot be read: 503, as its balances are (a withdrawal must not be refused as if nothing vested).
        if (!state)
          throw new PrebuyError('chain_unavailable', `Vesting positions on ${position.chain} could not be read.`, { details: { retryAfterSeconds: 5 } })
        const schedule = { total: BigInt(position.total), start: position.start, lockupEnd: position.lockupEnd, vestingSeconds: position.vestingSeconds }
        const now = vestingState(schedule, state.now, state.released)
        const key = position.tokenAddress.toLowerCase()
        const entry = out[position.chain].get(key) ?? {
          token: await tokenInfoOf(slugs, position.tokenAddress),
          locked: 0n,
          releasable: 0n,
          lockedUntil: null,
          positions: [],
          asOf: state.now,
        }
        const vestingEnd = position.lockupEnd + position.vestingSeconds
        entry.locked += now.locked
        entry.releasable += now.releasable
        if (now.locked > 0n) {
          const until = new Date(vestingEnd * 1000).toISOString()
          if (entry.lockedUntil === null || until > entry.lockedUntil) entry.lockedUntil = until
        }
        entry.positions.push({
          contract: position.contract as Address,
          id: BigInt(position.positionId),
          releasable: now.releasable,
          locked: now.locked,
          lockupEnd: position.lockupEnd,
          vestingEnd,
        })
        out[position.chain].set(key, entry)
      }
      return out
    },

    async vestedFor(keyId, chainKey, token) {
      const entry = (await this.walletVesting(keyId))[chainKey].get(token.toLowerCase())
      if (!entry) return undefined
      return {
        now: entry.asOf,
        releasable: entry.positions.filter((p) => p.releasable > 0n).map((p) => ({ contract: p.contract, positionId: p.id, amount: p.releasable })),
        locked: entry.positions.filter((p) => p.locked > 0n).map((p) => ({ amount: p.locked, lockupEnd: p.lockupEnd, vestingEnd: p.vestingEnd })),
      }
    },
  }
}
