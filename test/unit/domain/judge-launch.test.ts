import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { judgeLaunch, lacksSecondFact } from '../../../src/domain/launches/judge-launch.ts'

const CREATOR = '0x00000000000000000000000000000000000000c1'
const ATTACKER = '0x00000000000000000000000000000000000000ba'
const PLATFORM = '0x00000000000000000000000000000000000000f1'
const TOKEN = '0x00000000000000000000000000000000000000a1'
const OTHER_TOKEN = '0x00000000000000000000000000000000000000a2'
const none = new Set<string>()

describe('judgeLaunch (launch authenticity)', () => {
  const withSymbol = { deployer: CREATOR, expectedToken: null, expectedSymbol: 'MOON' }

  it('binds a launch sent by the registered deployer with the recorded symbol, in any letter case of the address', () => {
    expect(judgeLaunch(withSymbol, { token: TOKEN, deployer: CREATOR.toUpperCase().replace('0X', '0x'), claimedCreators: [], symbol: 'MOON' }, none)).toEqual({
      verdict: 'bound',
    })
    // Compared as NFKC, trimmed: the full-width form of the recorded symbol is the same symbol.
    expect(judgeLaunch(withSymbol, { token: TOKEN, deployer: CREATOR, claimedCreators: [], symbol: ' ＭＯＯＮ ' }, none)).toEqual({ verdict: 'bound' })
  })

  it("the deployer alone does not bind (issue 22): without a second fact it waits for the operator; the deployer's other coins are rejected", () => {
    const alone = judgeLaunch({ deployer: CREATOR, expectedToken: null }, { token: TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'MOON' }, none)
    expect(alone).toMatchObject({ verdict: 'awaiting_confirmation', rule: 'no_second_fact' })
    const other = judgeLaunch(withSymbol, { token: OTHER_TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'POST42' }, none)
    expect(other).toMatchObject({ verdict: 'rejected', rule: 'symbol_mismatch' })
    expect(other.verdict === 'rejected' && other.reason).toContain('"POST42"')
    // Symbols keep their case: moon is another token than MOON.
    expect(judgeLaunch(withSymbol, { token: OTHER_TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'moon' }, none)).toMatchObject({
      rule: 'symbol_mismatch',
    })
    // A recorded name must match too.
    const named = { ...withSymbol, expectedName: 'Moon Protocol' }
    expect(judgeLaunch(named, { token: TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'MOON', name: 'Moon Protocol' }, none)).toEqual({
      verdict: 'bound',
    })
    expect(judgeLaunch(named, { token: TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'MOON', name: 'Moon Test' }, none)).toMatchObject({
      verdict: 'rejected',
      rule: 'name_mismatch',
    })
  })

  it('rejects a forged launch naming the creator in a free field but sent by someone else', () => {
    const judged = judgeLaunch(withSymbol, { token: TOKEN, deployer: ATTACKER, claimedCreators: [CREATOR], symbol: 'MOON' }, none)
    expect(judged).toMatchObject({ verdict: 'rejected', rule: 'claimed_creator_only' })
    expect(judged.verdict === 'rejected' && judged.reason).toContain(ATTACKER)
  })

  it("rejects a look-alike with the project's symbol sent by anyone else; ignores launches that have nothing to do with the project", () => {
    expect(judgeLaunch(withSymbol, { token: TOKEN, deployer: ATTACKER, claimedCreators: [ATTACKER], symbol: 'MOON' }, none)).toMatchObject({
      verdict: 'rejected',
      rule: 'lookalike',
    })
    expect(judgeLaunch(withSymbol, { token: TOKEN, deployer: ATTACKER, claimedCreators: [ATTACKER], symbol: 'OTHER' }, none)).toEqual({
      verdict: 'unrelated',
    })
  })

  it('with an expected token address, only that token sent by the deployer binds; the address taken by anyone else is rejected', () => {
    const binding = { deployer: CREATOR, expectedToken: TOKEN }
    expect(judgeLaunch(binding, { token: TOKEN, deployer: CREATOR, claimedCreators: [] }, none)).toEqual({ verdict: 'bound' })
    const squatted = judgeLaunch(binding, { token: TOKEN, deployer: PLATFORM, claimedCreators: [] }, none)
    expect(squatted).toMatchObject({ verdict: 'rejected', rule: 'squatted_address' })
    expect(squatted.verdict === 'rejected' && squatted.reason).toContain(PLATFORM)
    expect(judgeLaunch(binding, { token: OTHER_TOKEN, deployer: CREATOR, claimedCreators: [] }, none)).toMatchObject({ rule: 'not_expected_token' })
    expect(judgeLaunch(binding, { token: OTHER_TOKEN, deployer: ATTACKER, claimedCreators: [CREATOR] }, none)).toMatchObject({ verdict: 'rejected' })
    expect(judgeLaunch(binding, { token: OTHER_TOKEN, deployer: ATTACKER, claimedCreators: [] }, none)).toEqual({ verdict: 'unrelated' })
    // The deployer's launch at the expected address with a pool of no known configuration of the launchpad: rejected.
    expect(judgeLaunch(binding, { token: TOKEN, deployer: CREATOR, claimedCreators: [], unknownPool: 'hook 0x1 is not known' }, none)).toMatchObject({
      verdict: 'rejected',
      rule: 'unknown_pool',
    })
  })

  it('a shared deployer never binds by itself, even with the expected token or the symbol: it waits for a confirmation', () => {
    const shared = new Set([PLATFORM])
    expect(judgeLaunch({ deployer: PLATFORM, expectedToken: null }, { token: TOKEN, deployer: PLATFORM, claimedCreators: [CREATOR] }, shared)).toMatchObject({
      verdict: 'awaiting_confirmation',
    })
    expect(judgeLaunch({ deployer: PLATFORM, expectedToken: TOKEN }, { token: TOKEN, deployer: PLATFORM, claimedCreators: [] }, shared)).toMatchObject({
      verdict: 'awaiting_confirmation',
      rule: 'shared_deployer',
    })
    expect(
      judgeLaunch(
        { deployer: PLATFORM, expectedToken: null, expectedSymbol: 'MOON' },
        { token: TOKEN, deployer: PLATFORM, claimedCreators: [], symbol: 'MOON' },
        shared,
      ),
    ).toMatchObject({ verdict: 'awaiting_confirmation', rule: 'shared_deployer' })
    expect(judgeLaunch({ deployer: PLATFORM, expectedToken: TOKEN }, { token: OTHER_TOKEN, deployer: PLATFORM, claimedCreators: [] }, shared)).toMatchObject({
      verdict: 'rejected',
    })
  })

  it('an open-market project approved without a symbol or an expected token is told apart (the daemon names them at start)', () => {
    expect(lacksSecondFact({ launchMethod: 'open_market' })).toBe(true)
    expect(lacksSecondFact({ launchMethod: 'open_market', expectedSymbol: null, expectedTokenAddress: null })).toBe(true)
    expect(lacksSecondFact({ launchMethod: 'open_market', expectedSymbol: 'MOON' })).toBe(false)
    expect(lacksSecondFact({ launchMethod: 'open_market', expectedTokenAddress: TOKEN })).toBe(false)
    expect(lacksSecondFact({ launchMethod: 'dev_buy' })).toBe(false)
  })

  it('after its bound launch was unsupported or quarantined, a project binds no other launch without the operator', () => {
    for (const status of ['unsupported', 'quarantined'] as const) {
      const held = { ...withSymbol, heldLaunch: { token: TOKEN, status } }
      const next = judgeLaunch(held, { token: OTHER_TOKEN, deployer: CREATOR, claimedCreators: [], symbol: 'MOON' }, none)
      expect(next).toMatchObject({ verdict: 'awaiting_confirmation', rule: 'held_launch' })
      expect(next.verdict === 'awaiting_confirmation' && next.reason).toContain(status)
    }
  })

  it('a dev_buy project binds only the token its own launch recorded: before that, its deployer launching anything is rejected', () => {
    const waiting = { deployer: CREATOR, expectedToken: null, expectedTokenOnly: true }
    const sent = judgeLaunch(waiting, { token: TOKEN, deployer: CREATOR, claimedCreators: [] }, none)
    expect(sent).toMatchObject({ verdict: 'rejected' })
    expect(sent.verdict === 'rejected' && sent.reason).toContain('dev buy')
    expect(judgeLaunch(waiting, { token: TOKEN, deployer: ATTACKER, claimedCreators: [CREATOR] }, none)).toMatchObject({ verdict: 'rejected' })
    expect(judgeLaunch(waiting, { token: TOKEN, deployer: ATTACKER, claimedCreators: [] }, none)).toEqual({ verdict: 'unrelated' })
    // Recorded by the launch (sent by the service's coordinator, not the registered deployer): that token binds.
    const launching = { ...waiting, expectedToken: TOKEN, launcher: PLATFORM }
    expect(judgeLaunch(launching, { token: TOKEN, deployer: PLATFORM, claimedCreators: [] }, none)).toEqual({ verdict: 'bound' })
  })

  it('a dev_buy project never binds a token its own launch did not deploy, even at the expected address (issue 19, item 3)', () => {
    const launching = { deployer: CREATOR, expectedToken: TOKEN, expectedTokenOnly: true, launcher: PLATFORM }
    // A squatter deployed the expected token first (Clanker's CREATE2 ignores the caller): rejected, saying by whom.
    const squatted = judgeLaunch(launching, { token: TOKEN, deployer: ATTACKER, claimedCreators: [CREATOR] }, none)
    expect(squatted).toMatchObject({ verdict: 'rejected' })
    expect(squatted.verdict === 'rejected' && squatted.reason).toContain(ATTACKER)
    expect(judgeLaunch(launching, { token: TOKEN, deployer: ATTACKER, claimedCreators: [] }, none)).toMatchObject({ verdict: 'rejected' })
    // Even by the registered deployer, and with no coordinator recorded nothing binds.
    expect(judgeLaunch(launching, { token: TOKEN, deployer: CREATOR, claimedCreators: [] }, none)).toMatchObject({ verdict: 'rejected' })
    expect(judgeLaunch({ ...launching, launcher: null }, { token: TOKEN, deployer: PLATFORM, claimedCreators: [] }, none)).toMatchObject({
      verdict: 'rejected',
    })
    // The coordinator's other launches (another project's token) are not this one's.
    expect(judgeLaunch(launching, { token: OTHER_TOKEN, deployer: PLATFORM, claimedCreators: [] }, none)).toEqual({ verdict: 'unrelated' })
    expect(judgeLaunch(launching, { token: OTHER_TOKEN, deployer: ATTACKER, claimedCreators: [CREATOR] }, none)).toMatchObject({ verdict: 'rejected' })
  })

  // Issue 19 item 2: the ERC-4337 deployer forgery (src/launchpads/launch-deployer.ts attributes; these judge).
  it('a launch batched beside an operation of the registered smart account, not emitted by it, is rejected with why', () => {
    const forged = { token: TOKEN, deployer: ATTACKER, claimedCreators: [], sharedSender: 'not emitted by any operation', operationSenders: [CREATOR] }
    const judged = judgeLaunch({ deployer: CREATOR, expectedToken: null }, forged, none)
    expect(judged).toMatchObject({ verdict: 'rejected' })
    expect(judged.verdict === 'rejected' && judged.reason).toContain(`ERC-4337 operation of the registered deployer ${CREATOR}`)
    expect(judged.verdict === 'rejected' && judged.reason).toContain('not emitted by any operation')
    expect(judged).toMatchObject({ rule: 'beside_operation' })
    // With an expected token, or as a dev_buy project: rejected too (it touched the project), never bound.
    expect(judgeLaunch({ deployer: CREATOR, expectedToken: OTHER_TOKEN }, forged, none)).toMatchObject({ verdict: 'rejected' })
    expect(judgeLaunch({ deployer: CREATOR, expectedToken: null, expectedTokenOnly: true }, forged, none)).toMatchObject({ verdict: 'rejected' })
    // Another project's operation beside it does not touch this one.
    expect(judgeLaunch({ deployer: PLATFORM, expectedToken: null }, forged, none)).toEqual({ verdict: 'unrelated' })
  })

  it('a shared sender (a bundler, an EIP-7702 sponsor) registered as the deployer never binds alone', () => {
    const launch = { token: TOKEN, deployer: PLATFORM, claimedCreators: [], symbol: 'MOON', sharedSender: 'the transaction is EIP-7702 (type 4)' }
    const judged = judgeLaunch({ deployer: PLATFORM, expectedToken: null, expectedSymbol: 'MOON' }, launch, none)
    expect(judged).toMatchObject({ verdict: 'awaiting_confirmation', rule: 'shared_sender' })
    expect(judged.verdict === 'awaiting_confirmation' && judged.reason).toContain('EIP-7702')
    // Not even with the expected token (issue 22: the address binds nobody alone).
    expect(judgeLaunch({ deployer: PLATFORM, expectedToken: TOKEN }, launch, none)).toMatchObject({ verdict: 'awaiting_confirmation', rule: 'shared_sender' })
  })
})

describe('judgeLaunch, properties (fast-check)', () => {
  const addr = fc.constantFrom(CREATOR, ATTACKER, PLATFORM, TOKEN, OTHER_TOKEN)
  const text = fc.constantFrom('MOON', 'moon', 'OTHER', 'Moon Protocol', null)
  const bindingArb = fc.record({
    deployer: addr,
    expectedToken: fc.option(addr, { nil: null }),
    expectedSymbol: text,
    expectedName: text,
    heldLaunch: fc.option(fc.record({ token: addr, status: fc.constantFrom('unsupported' as const, 'quarantined' as const) }), { nil: null }),
  })
  const factsArb = fc.record({
    token: addr,
    deployer: addr,
    claimedCreators: fc.array(addr, { maxLength: 2 }),
    symbol: text,
    name: text,
    sharedSender: fc.option(fc.constant('a bundler'), { nil: undefined }),
    operationSenders: fc.option(fc.array(addr, { maxLength: 2 }), { nil: undefined }),
    unknownPool: fc.option(fc.constant('hook unknown'), { nil: undefined }),
  })
  const sharedArb = fc.constantFrom(new Set<string>(), new Set([PLATFORM]))

  it('bound only with both facts: sent by the deployer (not shared, nothing held) and the expected token or the recorded symbol (and name)', () => {
    fc.assert(
      fc.property(bindingArb, factsArb, sharedArb, (binding, facts, shared) => {
        const judged = judgeLaunch(binding, facts, shared)
        if (judged.verdict !== 'bound') {
          if (judged.verdict !== 'unrelated') expect(judged.reason.length).toBeGreaterThan(0)
          return
        }
        expect(facts.deployer).toBe(binding.deployer)
        expect(facts.sharedSender).toBeUndefined()
        expect(shared.has(binding.deployer)).toBe(false)
        expect(binding.heldLaunch === null || binding.heldLaunch.token === facts.token).toBe(true)
        if (binding.expectedToken !== null) {
          expect(facts.token).toBe(binding.expectedToken)
          expect(facts.unknownPool).toBeUndefined()
        } else {
          expect(binding.expectedSymbol).not.toBeNull()
          expect(facts.symbol).toBe(binding.expectedSymbol)
          if (binding.expectedName !== null) expect(facts.name).toBe(binding.expectedName)
        }
      }),
      { numRuns: 2_000, seed: 22 },
    )
  })

  it('a launch someone else sent never binds, whatever it names or wherever it lands', () => {
    fc.assert(
      fc.property(bindingArb, factsArb, sharedArb, (binding, facts, shared) => {
        fc.pre(facts.deployer !== binding.deployer)
        expect(judgeLaunch(binding, facts, shared).verdict).not.toBe('bound')
      }),
      { numRuns: 1_000, seed: 22 },
    )
  })
})
