/**
 * Launch authenticity: whether a launch belongs to a registered project, decided only from facts nobody else can forge.
 *
 * On every supported launchpad a launch can name anyone as its creator in a field the caller chooses (Clanker
 * `tokenAdmin`, Zora `payoutRecipient`, Doppler's timelock), and the project's registered address is public. And the
 * registered deployer alone is not enough either (issue 22): a Zora creator's wallet mints a coin for every post, serial
 * Clanker deployers launch test tokens. So a launch binds a project only on **two independent facts**:
 * 1. its registered deployer sent it: the launch's deployer (the factory's msg.sender, or the transaction's sender, or
 *    the smart account of the ERC-4337 operation whose execution emitted the launch: src/launchpads/launch-deployer.ts)
 *    is it, and neither it nor the sender acts for many (a shared deployer: a platform contract, Clanker's presale, an
 *    EntryPoint; a shared sender: a bundler, an EIP-7702 sponsor), which binds only through the operator's confirmation;
 * 2. and one of: the expected token address recorded before launch; the symbol (and, when recorded, the name) recorded
 *    at approval; or the operator's confirmation of the candidate (launch-binding-service.ts `confirm`, outside this
 *    rule). The expected address alone binds nobody: it commits only to the token's own construction (for Doppler's
 *    clone factories to the salt alone), so whoever learns the salt can take the address first with their own pool.
 * A launch at the expected address must also have a pool of one of its launchpad's known configurations (hook, paired
 * asset, fee modules: known-launch-pools.ts). A project whose bound launch turned out unsupported or quarantined never
 * binds another launch without the operator.
 *
 * A dev_buy project is launched by this service itself (its coordinator deploys the token): only the token that launch
 * records as expected binds, and only as deployed by that coordinator (`launcher`); before that, nothing does. Clanker's
 * factory deploys a token at the same address for anyone who passes the same salt and parameters (CREATE2 without the
 * caller), so the address alone proves nothing; the coordinator calls the factory only inside its operator-only
 * `launch`, in the same transaction that emits DevBuyLaunched for the launch id.
 *
 * Anything else that touches the project (its deployer launching another token, a launch naming it in a free field, a
 * look-alike with its symbol, a squat of its expected address) is recorded as a rejected candidate with the reason and
 * the rule (`rule`, typed) for the operator, and buys nothing.
 */

export interface LaunchBinding {
  /** The registered deployer (the project's `creatorAddress`). */
  deployer: string
  /** The token address recorded before launch, if any. */
  expectedToken: string | null
  /** The token symbol recorded at approval (null or absent: none), a second fact with the deployer. */
  expectedSymbol?: string | null | undefined
  /** The token name recorded with the symbol (null or absent: none); when recorded, it must match too. */
  expectedName?: string | null | undefined
  /** Only the expected token binds (a dev_buy project: its own launch records it); default false. */
  expectedTokenOnly?: boolean
  /** With expectedTokenOnly: the dev-buy coordinator that must have deployed it (null: none recorded, nothing binds). */
  launcher?: string | null
  /**
   * A launch that bound the project earlier but could not be bought: unsupported, or quarantined (its reads failing).
   * Then no other launch binds without the operator's confirmation: the deployer's next token is not the project's.
   */
  heldLaunch?: { token: string; status: 'unsupported' | 'quarantined' } | null | undefined
}

export interface LaunchFacts {
  token: string
  deployer: string
  claimedCreators: readonly string[]
  /** The token's name and symbol as the launch event (or the token) says; null: unknown. */
  name?: string | null | undefined
  symbol?: string | null | undefined
  /** Why the deployer acts for many (a bundler, an EIP-7702 sponsor): then it never binds alone. */
  sharedSender?: string | undefined
  /** Smart accounts whose ERC-4337 operations ran in the launch transaction without the launch being theirs. */
  operationSenders?: readonly string[] | undefined
  /** Why the launch's pool is none of its launchpad's known configurations (known-launch-pools.ts); absent: it is one. */
  unknownPool?: string | undefined
}

/** Which rule held a launch back: typed, for tests, metrics and the operator's filters (the reason says it in words). */
export type LaunchRule =
  | 'shared_sender'
  | 'shared_deployer'
  | 'no_second_fact'
  | 'held_launch'
  | 'squatted_address'
  | 'not_expected_token'
  | 'symbol_mismatch'
  | 'name_mismatch'
  | 'unknown_pool'
  | 'beside_operation'
  | 'claimed_creator_only'
  | 'lookalike'
  | 'dev_buy_squatted'
  | 'dev_buy_other_token'
  /** Not this rule's verdict: the indexer's, for a launch only the owner's pending binding change would bind. */
  | 'pending_owner_change'

export type LaunchJudgement =
  | { verdict: 'bound' }
  | { verdict: 'awaiting_confirmation'; rule: LaunchRule; reason: string }
  | { verdict: 'rejected'; rule: LaunchRule; reason: string }
  | { verdict: 'unrelated' }

const same = (a: string, b: string): boolean => a.toLowerCase() === b.toLowerCase()

/**
 * A symbol or name as compared: Unicode NFKC (full-width and compatibility forms folded), trimmed; case kept (a
 * token's symbol is what its contract returns, exactly: `moon` and `MOON` are two tokens).
 */
export const normalizeTokenText = (text: string): string => text.normalize('NFKC').trim()

const sameText = (a: string | null | undefined, b: string): boolean => a != null && normalizeTokenText(a) === normalizeTokenText(b)

const rejected = (rule: LaunchRule, reason: string): LaunchJudgement => ({ verdict: 'rejected', rule, reason })
const awaiting = (rule: LaunchRule, reason: string): LaunchJudgement => ({ verdict: 'awaiting_confirmation', rule, reason })
const CONFIRM = "confirm it (prebuy launches confirm) if it is the project's"

function judgeDevBuy(binding: LaunchBinding, launch: LaunchFacts, touches: boolean): LaunchJudgement {
  const expected = binding.expectedToken !== null && same(launch.token, binding.expectedToken)
  if (expected && binding.launcher && same(launch.deployer, binding.launcher)) return { verdict: 'bound' }
  if (expected) {
    return rejected(
      'dev_buy_squatted',
      `${launch.token} is at the address the dev buy expects, but was deployed by ${launch.deployer}, not by this service's dev-buy launch (${binding.launcher ?? 'none recorded'}): someone deployed it first`,
    )
  }
  if (!touches) return { verdict: 'unrelated' }
  return rejected(
    'dev_buy_other_token',
    binding.expectedToken === null
      ? `the project launches by its dev buy, which has not started: ${launch.token} (sent by ${launch.deployer}) is not it`
      : `not the token the project's dev buy deploys (${binding.expectedToken}): ${launch.token}, sent by ${launch.deployer}`,
  )
}

/** The second fact, for a launch sent by the registered deployer: what binds it, or why not. */
function secondFact(binding: LaunchBinding, launch: LaunchFacts): LaunchJudgement {
  if (binding.expectedToken !== null) {
    if (same(launch.token, binding.expectedToken)) return { verdict: 'bound' }
    return rejected('not_expected_token', `not the expected token ${binding.expectedToken} (launched ${launch.token}, sent by ${launch.deployer})`)
  }
  const symbol = binding.expectedSymbol ?? null
  if (symbol === null) {
    return awaiting(
      'no_second_fact',
      `sent by the registered deployer ${launch.deployer}, but no second fact is recorded (expected token address, or symbol at approval): ${CONFIRM}, or record one`,
    )
  }
  if (!sameText(launch.symbol, symbol)) {
    return rejected(
      'symbol_mismatch',
      `sent by the registered deployer, but its symbol ${JSON.stringify(launch.symbol ?? null)} is not the recorded ${JSON.stringify(symbol)}: another coin of the deployer`,
    )
  }
  const name = binding.expectedName ?? null
  if (name !== null && !sameText(launch.name, name)) {
    return rejected(
      'name_mismatch',
      `sent by the registered deployer with the recorded symbol, but its name ${JSON.stringify(launch.name ?? null)} is not the recorded ${JSON.stringify(name)}`,
    )
  }
  return { verdict: 'bound' }
}

/**
 * Whether an open-market project has a second fact recorded (a symbol or an expected token): without one, every launch
 * of its deployer waits for the operator's confirmation (projects approved before issue 22 have none).
 */
export const lacksSecondFact = (project: {
  launchMethod: string
  expectedSymbol?: string | null | undefined
  expectedTokenAddress?: string | null | undefined
}): boolean => project.launchMethod === 'open_market' && !project.expectedSymbol && !project.expectedTokenAddress

export function judgeLaunch(binding: LaunchBinding, launch: LaunchFacts, sharedDeployers: ReadonlySet<string>): LaunchJudgement {
  const sentByDeployer = same(launch.deployer, binding.deployer)
  const namesDeployer = launch.claimedCreators.some((claimed) => same(claimed, binding.deployer))
  // The forgery of issue 19: a launch batched in one transaction next to any operation of the registered smart account.
  const besideOperation = (launch.operationSenders ?? []).some((sender) => same(sender, binding.deployer))
  if (binding.expectedTokenOnly) return judgeDevBuy(binding, launch, sentByDeployer || namesDeployer || besideOperation)

  const atExpected = binding.expectedToken !== null && same(launch.token, binding.expectedToken)
  if (!sentByDeployer) {
    if (atExpected) {
      // The address commits to the token's construction, not to who deploys it: anyone with the salt can take it first.
      return rejected(
        'squatted_address',
        `${launch.token} is at the expected address, but was sent by ${launch.deployer}${launch.sharedSender ? ` (${launch.sharedSender})` : ''}, not by the registered deployer ${binding.deployer}: someone took the address first`,
      )
    }
    if (besideOperation) {
      return rejected(
        'beside_operation',
        `the transaction ran an ERC-4337 operation of the registered deployer ${binding.deployer}, but the launch is not attributed to it: sent by ${launch.deployer}${launch.sharedSender ? ` (${launch.sharedSender})` : ''}`,
      )
    }
    if (namesDeployer) {
      return rejected(
        'claimed_creator_only',
        `names the registered deployer only in a field anyone can set; sent by ${launch.deployer}, not by ${binding.deployer}`,
      )
    }
    if (binding.expectedSymbol != null && sameText(launch.symbol, binding.expectedSymbol)) {
      return rejected(
        'lookalike',
        `has the project's symbol ${JSON.stringify(launch.symbol)}, but was sent by ${launch.deployer}, not by the registered deployer ${binding.deployer}`,
      )
    }
    return { verdict: 'unrelated' }
  }

  const second = secondFact(binding, launch)
  if (second.verdict === 'rejected') return second
  // From here the launch has both facts, or only the deployer (awaiting the operator): what still holds it back.
  if (atExpected && launch.unknownPool !== undefined) {
    // The expected address says nothing of the pool: a pool no known configuration of the launchpad makes is not the
    // project's launch, even from its deployer (someone may have handed the salt on, or the deployer's key leaked).
    return rejected('unknown_pool', `at the expected address, but its pool is none of the launchpad's known configurations: ${launch.unknownPool}`)
  }
  if (launch.sharedSender) {
    return awaiting('shared_sender', `sent by ${launch.deployer}, a shared sender (${launch.sharedSender}): ${CONFIRM}`)
  }
  if (sharedDeployers.has(binding.deployer.toLowerCase())) {
    return awaiting('shared_deployer', `sent by ${launch.deployer}, a shared deployer that launches for many: ${CONFIRM}`)
  }
  if (binding.heldLaunch && !same(binding.heldLaunch.token, launch.token)) {
    return awaiting(
      'held_launch',
      `the project's launch ${binding.heldLaunch.token} was bound and is ${binding.heldLaunch.status}: another launch of its deployer binds only once the operator confirms it (${CONFIRM})`,
    )
  }
  return second
}
