import type { Address } from 'viem'
import type { ChainKey } from '../../chain/chain-keys.ts'
import type { LaunchMethodSetup, WiredLaunchMethod } from '../worker/wired-launch-method.ts'
import { createVestingChain, type VestingChain } from './chain/vesting-chain.ts'
import { resolveVesting } from './worker/resolve-vesting.ts'

export interface WiredVesting extends WiredLaunchMethod {
  /** For the services: reads and releases vested positions (the contract per chain is known once resolved). */
  vestingChain: VestingChain
  /** The vesting contract per chain where it is there; the methods that lock tokens in it (pooled OTC, dev buy) await it. */
  resolved(): Promise<Partial<Record<ChainKey, Address>>>
}

/** The launch methods' shared part: the vesting contract that locked OTC fills and dev-buy allocations go to. */
export function wireVesting(setup: LaunchMethodSetup): WiredVesting {
  const addresses: Partial<Record<ChainKey, Address>> = {}
  let resolving: Promise<Partial<Record<ChainKey, Address>>> | undefined
  const resolved = () => {
    resolving ??= resolveVesting(setup).then((found) => Object.assign(addresses, found))
    return resolving
  }
  return {
    name: 'vesting',
    vestingChain: createVestingChain({ clients: setup.clients, vesting: addresses }),
    resolved,
    resolve: async () => {
      await resolved()
    },
    // Nothing runs in the background: a position is released when its owner withdraws (src/wallets/withdraw.ts).
    workers: () => [],
  }
}
