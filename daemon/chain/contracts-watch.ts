import type { Address, PublicClient } from 'viem'
import type { ChainKey } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import { withDeadline } from '../../src/common/with-deadline.ts'
import type { OurContract, OurContractName } from './our-contracts.ts'

/** One of our contracts as last read: deployed (code at its address), missing, or null when the chain did not answer. */
export interface OurContractState {
  name: OurContractName
  address: Address
  deployed: boolean | null
}

export type OurContractsState = Partial<Record<ChainKey, OurContractState[]>>

export interface ContractsWatch {
  /** Reads code at the address of every contract not yet seen deployed (a contract once seen stays deployed). */
  refresh(): Promise<OurContractsState>
  /** Whether every contract on every watched chain has been seen deployed. */
  complete(): boolean
  /** Resolves the first time every contract has been seen deployed (at once if they already are). */
  whenComplete: Promise<void>
  stop(): void
}

/** How long one chain may take to answer the code reads of a refresh. */
const READ_DEADLINE_MS = 5_000

/**
 * Watches for this service's own contracts (our-contracts.ts) on each enabled chain. The daemon runs without them (it
 * cannot buy, and says so in `daemon status` and `/readyz`) until they are deployed (`prebuy contracts deploy`);
 * re-read on every refresh (each readiness probe, `daemon status`, after a deployment) and every `intervalMs`, so the
 * daemon becomes ready without a restart. Reads stop once everything is there: code at a CREATE2 address cannot go away
 * short of a reorg of its deployment, which the next deployment command would redo.
 */
export function watchOurContracts(deps: {
  contracts: Partial<Record<ChainKey, OurContract[]>>
  clients: Partial<Record<ChainKey, PublicClient>>
  logger: Logger
  intervalMs?: number
}): ContractsWatch {
  const state: OurContractsState = {}
  for (const [chain, list] of Object.entries(deps.contracts) as Array<[ChainKey, OurContract[]]>) {
    state[chain] = list.map((c) => ({ name: c.name, address: c.address, deployed: null }))
  }
  const all = () => Object.values(state).flatMap((list) => list ?? [])
  const complete = () => all().every((c) => c.deployed === true)
  let resolveComplete!: () => void
  const whenComplete = new Promise<void>((resolve) => (resolveComplete = resolve))
  let inFlight: Promise<OurContractsState> | undefined

  async function readChain(chain: ChainKey, list: OurContractState[]): Promise<void> {
    const client = deps.clients[chain]
    if (!client) return
    await Promise.all(
      list
        .filter((c) => c.deployed !== true)
        .map(async (c) => {
          // viem answers undefined for an address without code; a failed read keeps what was known.
          const code = await withDeadline(client.getCode({ address: c.address }), READ_DEADLINE_MS, () => new Error('no answer')).then(
            (read) => ({ read }),
            () => null,
          )
          if (code !== null) c.deployed = code.read !== undefined && code.read !== '0x'
        }),
    )
  }

  const refresh = (): Promise<OurContractsState> => {
    if (complete()) return Promise.resolve(snapshot())
    inFlight ??= (async () => {
      try {
        await Promise.all((Object.entries(state) as Array<[ChainKey, OurContractState[]]>).map(([chain, list]) => readChain(chain, list)))
        if (complete()) {
          deps.logger.info({ contracts: snapshot() }, 'our contracts are deployed on every chain')
          resolveComplete()
        }
        return snapshot()
      } finally {
        inFlight = undefined
      }
    })()
    return inFlight
  }
  const snapshot = (): OurContractsState =>
    Object.fromEntries((Object.entries(state) as Array<[ChainKey, OurContractState[]]>).map(([chain, list]) => [chain, list.map((c) => ({ ...c }))]))

  if (complete()) resolveComplete()
  const timer = setInterval(() => {
    if (complete()) clearInterval(timer)
    else void refresh().catch(() => undefined)
  }, deps.intervalMs ?? 10_000)
  timer.unref()
  return { refresh, complete, whenComplete, stop: () => clearInterval(timer) }
}

/** The contracts a state lists as not deployed (or unknown), per chain: what `/readyz` and the start-up log name. */
export function missingContracts(state: OurContractsState): Partial<Record<ChainKey, OurContractState[]>> {
  const out: Partial<Record<ChainKey, OurContractState[]>> = {}
  for (const [chain, list] of Object.entries(state) as Array<[ChainKey, OurContractState[]]>) {
    const missing = list.filter((c) => c.deployed !== true)
    if (missing.length > 0) out[chain] = missing
  }
  return out
}
