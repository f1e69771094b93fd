import { type Address, getAddress } from 'viem'
import { ENTRY_POINTS } from './launch-deployer.ts'

/** A deployer known to launch for many people, and why (shown with its candidates). */
export interface KnownSharedDeployer {
  address: Address
  why: string
}

/**
 * Deployers shared by many creators, known by default (issue 22): a project registered with one of them binds only
 * through the operator's confirmation, whatever second fact it has. Configured ones (`launches.sharedDeployers`) add to
 * these. Sources:
 * - Clanker v4's presale extension `ClankerPresaleEthToCreator` calls the factory itself when a presale ends (its
 *   `msgSender` in TokenCreated is the presale contract, for every presale): clanker-sdk 4.2.18 `dist/index.js`, the
 *   Base `clanker_v4` deployment's `related.presale` (clanker-devco/v4-contracts `src/extensions/ClankerPresaleEthToCreator.sol`).
 * - Multicall3, deployed at the same address on every chain (viem's chain definitions, `contracts.multicall3`): anyone's
 *   launch sent through it has Multicall3 as the factory's msg.sender.
 * - The ERC-4337 EntryPoints v0.6 to v0.9 (viem's `entryPoint0xAddress`): they call an account, never a factory, but
 *   one registered as a deployer would stand for every smart account.
 * Platform deployer accounts: Bankr sends launches from its deployment wallet or the user's provisioned wallet
 * (../shared/facts/launchpads.md, "Who launched it"), but publishes no address we could source; bundlers are known from
 * the launch transaction itself (it ran an EntryPoint: launch-deployer.ts), not from a list.
 */
export const DEFAULT_SHARED_DEPLOYERS: readonly KnownSharedDeployer[] = [
  { address: getAddress('0xeeBbC567C3D612f50a67820f39CDD30dcCF7E6b8'), why: "Clanker v4's presale contract (ClankerPresaleEthToCreator, Base)" },
  { address: getAddress('0xcA11bde05977b3631167028862bE2a173976CA11'), why: 'Multicall3 (anyone can launch through it)' },
  ...ENTRY_POINTS.map((address) => ({ address, why: `an ERC-4337 EntryPoint (${address})` })),
]

/** Why an address is a known shared deployer (the defaults, then the configured ones), or undefined. */
export function sharedDeployerWhy(address: string, configured: readonly string[] = []): string | undefined {
  const known = DEFAULT_SHARED_DEPLOYERS.find((d) => d.address.toLowerCase() === address.toLowerCase())
  if (known) return known.why
  return configured.some((c) => c.toLowerCase() === address.toLowerCase()) ? 'a configured shared deployer (launches.sharedDeployers)' : undefined
}
