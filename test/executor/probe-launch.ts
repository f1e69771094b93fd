import type { Address } from 'viem'
import type { LaunchedToken } from '../../devnet/launchpads/launch-token.ts'
import type { FlowHarness } from './flow-harness.ts'

/** A constant 1% launch fee: the probe launch's quotes and the real launch's batch see the same pool. */
export const CONSTANT_FEE = { startFee: 10_000, endFee: 10_000, decaySeconds: 1 }

/**
 * A Doppler launch with CONSTANT_FEE from the devnet's sixth account, mined while it lands and then stopped: a pool
 * identical to the test's real launch (same launchpad, supply, fee, curve), to read prices on first (fdv-of.ts).
 */
export async function launchProbe(h: FlowHarness, slug: string): Promise<LaunchedToken> {
  h.startMining()
  const probe = await h.launch(slug, 'doppler', h.devnet.accounts[5]!.account.address as Address, CONSTANT_FEE)
  await h.stopMining()
  return probe
}
