/**
 * A launchpad's known pool configurations (issue 22): the hooks its factory uses, the assets its pools pair with and
 * the fee modules (MEV modules, Doppler hooks) it names. A launch whose pool is none of them is not bought, whoever
 * sent it: a token's address commits only to its own construction (Doppler's clone factories: the salt alone), so
 * someone who takes an expected address first can give it a pool of their own (another hook, pair or fee module).
 * Pure: the lists come from src/launchpads/known-launch-pools.ts (Base, sourced) or the devnet's deployment.
 */
import { type LaunchSupplySplit, type SupplySplitRules, supplySplitProblem } from './supply-split.ts'

/** What a launch's pool is made of, as its adapter decoded it. */
export interface LaunchPoolFacts {
  /** The v4 pool key's hooks. */
  hook: string
  /** The paired asset's kind (weth, eth, zora, coin) and address. */
  paired: { kind: string; address: string }
  /** The launch's named fee sources (hook, MEV module, Doppler hook ...): each must be known. */
  feeSources: Readonly<Record<string, string>>
  /** How the launch divided its supply between pool and extensions, where its launchpad announces it (Clanker). */
  supplySplit?: LaunchSupplySplit | undefined
}

/** One launchpad's known configurations; an absent list is not checked. */
export interface KnownPoolConfig {
  hooks?: readonly string[]
  pairedKinds?: readonly string[]
  /** Fee sources other than the hook (MEV modules, Doppler hooks); the zero address stands for "none". */
  feeModules?: readonly string[]
  /** What the factory allows of a supply split (Clanker's extensions); checked when the launch announces one. */
  supplySplit?: SupplySplitRules
}

/** Per launchpad id; a launchpad without an entry is not checked (its factory's own allow-lists are all there is). */
export type KnownLaunchPools = Readonly<Partial<Record<string, KnownPoolConfig>>>

const lower = (list: readonly string[]): Set<string> => new Set(list.map((a) => a.toLowerCase()))

/** Why the pool is none of the launchpad's known configurations, or undefined when it is one (or nothing is known). */
export function unknownPoolReason(launchpad: string, pool: LaunchPoolFacts, known: KnownLaunchPools): string | undefined {
  const config = known[launchpad]
  if (!config) return undefined
  if (config.hooks && !lower(config.hooks).has(pool.hook.toLowerCase())) return `hook ${pool.hook} is not one of ${launchpad}'s known hooks`
  if (config.pairedKinds && !config.pairedKinds.includes(pool.paired.kind)) {
    return `pairs with ${pool.paired.kind} ${pool.paired.address}, not one of ${launchpad}'s known pairs (${config.pairedKinds.join(', ')})`
  }
  const modules = lower([...(config.feeModules ?? []), ...(config.hooks ?? [])])
  if (config.feeModules) {
    for (const [name, address] of Object.entries(pool.feeSources)) {
      if (!modules.has(address.toLowerCase())) return `fee module ${name} ${address} is not one of ${launchpad}'s known modules`
    }
  }
  const split = config.supplySplit && pool.supplySplit && supplySplitProblem(pool.supplySplit, config.supplySplit)
  if (split) return `an impossible supply split: ${split}`
  return undefined
}
