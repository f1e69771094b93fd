import { type Address, encodeFunctionData, isAddressEqual, type PublicClient } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { batchBuyerAbi } from './batch-buyer-abi.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'

/** Gas of one setOperator (an SSTORE to a fresh slot and an event, ~47k measured on the devnet), with room. */
const SET_OPERATOR_GAS = 100_000n

/** Between two attempts on a chain whose accounts are not all operators yet (no code yet, a send that failed). */
const RETRY_MS = 10_000

/**
 * The sender accounts as operators of the batch buyer (docs/chains.md "Batch operators"). The contract's address
 * depends on its constructor's operators, which stay [bundler EOA] (batch-buyer-address.ts), so every further sender
 * account is added by the admin (the same bundler EOA) with `setOperator(account, true)`, only where `operators(account)`
 * reads false: idempotent, a restart sends nothing. Until every sender of a chain is an operator (read back from the
 * chain, never assumed from a sent transaction), its batches go out from the bundler EOA alone (`sendCall`); once they
 * are, from the freest sender account (`sendFromPool`), so two launches' batches in one block, or a batch and a
 * handleOps, do not wait on one nonce.
 *
 * Never on the hot path: `ensure` runs in the background at start and again on later blocks while a chain is not ready
 * (in rpc mode the batch buyer may be deployed by `prebuy contracts deploy` after the daemon started).
 */
export interface BatchOperators {
  /** Reads and, where needed, sends setOperator for the chain's sender accounts; resolves when done (never rejects). */
  ensure(chain: ChainKey): Promise<void>
  /** Asks again on a chain not yet ready, at most every RETRY_MS (a block signal calls this). */
  retry(chain: ChainKey): void
  /** Every sender account of the chain is an operator on chain: batches may be sent from the pool. */
  poolReady(chain: ChainKey): boolean
  /** Work in progress (idle() and stop() wait for it). */
  running(): Promise<void>[]
}

/** What making operators asks of the wallet layer (a part of the executor's wallets). */
export type BatchOperatorWallets = Partial<Pick<WalletService, 'sendCall' | 'operatorAddress'>> &
  Partial<Pick<PrebuyWalletService, 'sendFromPool' | 'senderAddresses'>>

export interface BatchOperatorsDeps {
  clients: Partial<Record<ChainKey, PublicClient>>
  batchBuyers: Partial<Record<ChainKey, Address>>
  wallets: BatchOperatorWallets
  log: Logger
  now?: () => number
}

export function createBatchOperators(deps: BatchOperatorsDeps): BatchOperators {
  const now = deps.now ?? Date.now
  const ready = new Set<ChainKey>()
  const inProgress = new Map<ChainKey, Promise<void>>()
  const lastTried = new Map<ChainKey, number>()

  const notOperators = async (client: PublicClient, batchBuyer: Address, senders: readonly Address[]): Promise<Address[]> => {
    const flags = await Promise.all(
      senders.map(
        (account) => client.readContract({ address: batchBuyer, abi: batchBuyerAbi, functionName: 'operators', args: [account] }) as Promise<boolean>,
      ),
    )
    return senders.filter((_, i) => !flags[i])
  }

  async function attempt(chain: ChainKey): Promise<void> {
    const client = deps.clients[chain]
    const batchBuyer = deps.batchBuyers[chain]
    const senders = deps.wallets.senderAddresses?.(chain) ?? []
    const send = deps.wallets.sendCall
    if (!client || !batchBuyer || senders.length === 0 || !deps.wallets.sendFromPool || !send) return
    const code = await client.getCode({ address: batchBuyer })
    if (!code || code === '0x') return
    let missing = await notOperators(client, batchBuyer, senders)
    if (missing.length > 0) {
      const admin = (await client.readContract({ address: batchBuyer, abi: batchBuyerAbi, functionName: 'admin' })) as Address
      const operator = deps.wallets.operatorAddress?.(chain)
      if (!operator || !isAddressEqual(admin, operator)) {
        deps.log.warn(
          { chain, batchBuyer, admin, operator },
          'the batch buyer has another admin: sender accounts cannot be made operators; batches go out from the bundler EOA',
        )
        return
      }
      deps.log.info({ chain, batchBuyer, accounts: missing }, 'making sender accounts operators of the batch buyer')
      const sent = await Promise.all(
        missing.map((account) =>
          send(
            chain,
            { to: batchBuyer, data: encodeFunctionData({ abi: batchBuyerAbi, functionName: 'setOperator', args: [account, true] }), gas: SET_OPERATOR_GAS },
            { setOperator: account },
          ),
        ),
      )
      await Promise.all(sent.map((s) => s.landed))
      missing = await notOperators(client, batchBuyer, senders)
    }
    if (missing.length === 0) {
      ready.add(chain)
      deps.log.info({ chain, batchBuyer, operators: senders.length }, 'every sender account is a batch operator: batches go out from the pool')
    }
  }

  const ensure = (chain: ChainKey): Promise<void> => {
    const running = inProgress.get(chain)
    if (running) return running
    lastTried.set(chain, now())
    const task = attempt(chain)
      .catch((error) => deps.log.warn({ err: error, chain }, 'making sender accounts batch operators failed; tried again later'))
      .finally(() => inProgress.delete(chain))
    inProgress.set(chain, task)
    return task
  }

  return {
    ensure,
    retry(chain) {
      if (ready.has(chain) || inProgress.has(chain) || !deps.batchBuyers[chain]) return
      if (now() - (lastTried.get(chain) ?? Number.NEGATIVE_INFINITY) < RETRY_MS) return
      void ensure(chain)
    },
    poolReady: (chain) => ready.has(chain),
    running: () => [...inProgress.values()],
  }
}
