/**
 * Launch authenticity: whether a launch belongs to a registered project, decided only from facts nobody else can forge.
 *
 * On every supported launchpad a launch can name anyone as its creator in a field the caller chooses (Clanker
 * `tokenAdmin`, Zora `payoutRecipient`, Doppler's timelock), and the project's registered address is public. So a
 * project is bound by:
 * - its registered deployer: the launch's deployer (the factory's msg.sender, or the transaction's sender, or the
 *   smart account of the ERC-4337 operation whose execution emitted the launch) must be it, and not a shared sender
 *   (an ERC-4337 bundler whose transaction emitted the launch outside every operation's execution, an EIP-7702
 *   sponsor: src/launchpads/launch-deployer.ts), which binds only through the operator's confirmation;
 * - or, when recorded before launch, its expected token address: then only that address binds, whoever sent it (the
 *   address commits to the token's deployment parameters, so a look-alike cannot have it);
 * - a registered deployer that launches for many people (a platform contract, Bankr's deployer: the configured shared
 *   deployers) binds only through an expected token address or an operator's confirmation of the candidate.
 * - a dev_buy project is launched by this service itself (its coordinator deploys the token): only the token that launch
 *   records as expected binds, and only as deployed by that coordinator (`launcher`); before that, nothing does (the
 *   project announced a dev buy, not an open-market launch). Clanker's factory deploys a token at the same address for
 *   anyone who passes the same salt and parameters (CREATE2 without the caller), so the address alone proves nothing
 *   here; the coordinator calls the factory only inside its operator-only `launch`, in the same transaction that emits
 *   DevBuyLaunched for the launch id, so a token it deployed at the expected address is this launch's own.
 * Anything else that touches the project (its deployer launching another token, a launch naming it in a free field)
 * is recorded as a rejected candidate with the reason, for the operator, and buys nothing.
 */

export interface LaunchBinding {
  /** The registered deployer (the project's `creatorAddress`). */
  deployer: string
  /** The token address recorded before launch, if any. */
  expectedToken: string | null
  /** Only the expected token binds (a dev_buy project: its own launch records it); default false. */
  expectedTokenOnly?: boolean
  /** With expectedTokenOnly: the dev-buy coordinator that must have deployed it (null: none recorded, nothing binds). */
  launcher?: string | null
}

export interface LaunchFacts {
  token: string
  deployer: string
  claimedCreators: readonly string[]
  /** Why the deployer acts for many (a bundler, an EIP-7702 sponsor): then it never binds alone. */
  sharedSender?: string | undefined
  /** Smart accounts whose ERC-4337 operations ran in the launch transaction without the launch being theirs. */
  operationSenders?: readonly string[] | undefined
}

export type LaunchJudgement =
  | { verdict: 'bound' }
  | { verdict: 'awaiting_confirmation'; reason: string }
  | { verdict: 'rejected'; reason: string }
  | { verdict: 'unrelated' }

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

export function judgeLaunch(binding: LaunchBinding, launch: LaunchFacts, sharedDeployers: ReadonlySet<string>): LaunchJudgement {
  const sentByDeployer = same(launch.deployer, binding.deployer)
  const namesDeployer = launch.claimedCreators.some((claimed) => same(claimed, binding.deployer))
  // The forgery of issue 19: a launch batched in one transaction next to any operation of the registered smart account.
  const besideOperation = (launch.operationSenders ?? []).some((sender) => same(sender, binding.deployer))
  if (binding.expectedTokenOnly) {
    const expected = binding.expectedToken !== null && same(launch.token, binding.expectedToken)
    if (expected && binding.launcher && same(launch.deployer, binding.launcher)) return { verdict: 'bound' }
    if (expected) {
      return {
        verdict: 'rejected',
        reason: `${launch.token} is at the address the dev buy expects, but was deployed by ${launch.deployer}, not by this service's dev-buy launch (${binding.launcher ?? 'none recorded'}): someone deployed it first`,
      }
    }
    if (!sentByDeployer && !namesDeployer && !besideOperation) return { verdict: 'unrelated' }
    return {
      verdict: 'rejected',
      reason:
        binding.expectedToken === null
          ? `the project launches by its dev buy, which has not started: ${launch.token} (sent by ${launch.deployer}) is not it`
          : `not the token the project's dev buy deploys (${binding.expectedToken}): ${launch.token}, sent by ${launch.deployer}`,
    }
  }
  if (binding.expectedToken !== null) {
    if (same(launch.token, binding.expectedToken)) return { verdict: 'bound' }
    if (sentByDeployer || namesDeployer || besideOperation) {
      return { verdict: 'rejected', reason: `not the expected token ${binding.expectedToken} (launched ${launch.token}, sent by ${launch.deployer})` }
    }
    return { verdict: 'unrelated' }
  }
  if (sentByDeployer) {
    if (launch.sharedSender) {
      return {
        verdict: 'awaiting_confirmation',
        reason: `sent by ${launch.deployer}, a shared sender (${launch.sharedSender}): confirm it (prebuy launches confirm) or record the expected token address`,
      }
    }
    if (sharedDeployers.has(binding.deployer.toLowerCase())) {
      return {
        verdict: 'awaiting_confirmation',
        reason: `sent by ${launch.deployer}, a shared deployer that launches for many: confirm it (prebuy launches confirm) or record the expected token address`,
      }
    }
    return { verdict: 'bound' }
  }
  if (besideOperation) {
    return {
      verdict: 'rejected',
      reason: `the transaction ran an ERC-4337 operation of the registered deployer ${binding.deployer}, but the launch is not attributed to it: sent by ${launch.deployer}${launch.sharedSender ? ` (${launch.sharedSender})` : ''}`,
    }
  }
  if (namesDeployer) {
    return {
      verdict: 'rejected',
      reason: `names the registered deployer only in a field anyone can set; sent by ${launch.deployer}, not by ${binding.deployer}`,
    }
  }
  return { verdict: 'unrelated' }
}
