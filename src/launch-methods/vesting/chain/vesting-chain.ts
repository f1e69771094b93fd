import type { Address, PublicClient } from 'viem'
import type { ChainKey } from '../../../chain/chain-keys.ts'
import { type OnChainPosition, VESTING_ABI } from './vesting-contract.ts'

/** What the service reads of the vesting contract: the port the daemon fills with its clients and vesting addresses. */
export interface VestingChain {
  /** The vesting contract on a chain; null where this deployment has none. */
  contract(chain: ChainKey): Address | null
  /** Positions by contract and id (a position stays on the contract that created it), in the order asked. */
  positions(chain: ChainKey, refs: ReadonlyArray<{ contract: Address; id: bigint }>): Promise<OnChainPosition[]>
  /** The chain's latest block time, unix seconds: what the contract's `releasable` is computed at. */
  now(chain: ChainKey): Promise<number>
}

export function createVestingChain(deps: { clients: Record<ChainKey, PublicClient>; vesting: Partial<Record<ChainKey, Address>> }): VestingChain {
  const { clients, vesting } = deps
  return {
    contract: (chain) => vesting[chain] ?? null,
    async positions(chain, refs) {
      // One read per position (a buyer has one per locked fill: a handful), in parallel.
      return Promise.all(
        refs.map(async ({ contract: address, id }) => {
          const [beneficiary, token, total, released, start, lockupEnd, vestingSeconds] = (await clients[chain].readContract({
            address,
            abi: VESTING_ABI,
            functionName: 'positions',
            args: [id],
          })) as [Address, Address, bigint, bigint, bigint, bigint, bigint]
          return { beneficiary, token, total, released, start, lockupEnd, vestingSeconds }
        }),
      )
    },
    now: async (chain) => Number((await clients[chain].getBlock()).timestamp),
  }
}
