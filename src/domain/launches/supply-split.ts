/**
 * How a launch divides its token supply between its pool and its extensions (Clanker v4: vaults, airdrops, presales,
 * the dev buy), as the launch transaction announced it: the factory's total for the extensions and what each extension
 * was handed. Decimal strings (stored with the candidate as JSON). Pure.
 */
export interface LaunchSupplySplit {
  /** The launch event's total for the extensions (Clanker's TokenCreated `extensionsSupply`), token atoms. */
  extensionsSupply: string
  /** The extensions the launch event lists, in order. */
  extensions: readonly string[]
  /** What each extension received, in the order the factory handed it out (Clanker's ExtensionTriggered logs). */
  extensionSupplies: readonly string[]
}

/** What a launchpad's factory allows (its constants, sourced where they are defined). */
export interface SupplySplitRules {
  /** The fixed token supply, atoms (decimal string). */
  tokenSupply: string
  /** The denominator of an extension's share (basis points: 10,000). */
  bps: number
  /** The extensions' shares may add up to at most this many bps. */
  maxExtensionBps: number
  maxExtensions: number
}

/**
 * Why a launch's supply split is one its factory cannot produce, or undefined. Each extension's share is
 * `bps * tokenSupply / BPS` and the total is `sum(bps) * tokenSupply / BPS`, at most `maxExtensionBps` of it, with at
 * most `maxExtensions` extensions, and no supply without an extension: a launch claiming otherwise did not come out of
 * the factory's code (or its pool is not the one the announced split built).
 */
export function supplySplitProblem(split: LaunchSupplySplit, rules: SupplySplitRules): string | undefined {
  const supply = BigInt(split.extensionsSupply)
  const tokenSupply = BigInt(rules.tokenSupply)
  const unit = tokenSupply / BigInt(rules.bps)
  const n = split.extensions.length
  if (n > rules.maxExtensions) return `${n} extensions, more than the ${rules.maxExtensions} the factory allows`
  if (n === 0 && supply !== 0n) return `extensions' supply ${supply} with no extension`
  if (supply * BigInt(rules.bps) > tokenSupply * BigInt(rules.maxExtensionBps)) {
    return `extensions' supply ${supply} is above ${rules.maxExtensionBps} bps of the token supply ${tokenSupply}`
  }
  if (supply % unit !== 0n) return `extensions' supply ${supply} is not a whole number of basis points of the token supply ${tokenSupply}`
  if (split.extensionSupplies.length !== n) return `the launch lists ${n} extensions but handed supply to ${split.extensionSupplies.length}`
  let handed = 0n
  for (const [i, each] of split.extensionSupplies.entries()) {
    const amount = BigInt(each)
    if (amount % unit !== 0n) return `extension ${split.extensions[i]} received ${amount}, not a whole number of basis points of the supply`
    handed += amount
  }
  if (handed !== supply) return `the extensions received ${handed} in all, not the extensions' supply ${supply} the launch announced`
  return undefined
}
