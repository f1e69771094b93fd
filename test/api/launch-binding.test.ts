import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvedProject, bearer, createHarness, createKey, type Harness, markLaunched, PREFIX } from './harness.ts'

const TOKEN = '0x00000000000000000000000000000000000000a7'

describe('PATCH /projects/{slug}/launch-binding (the owner records the expected token address)', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(() => h.destroy())

  const patch = (slug: string, apiKey: string, payload: unknown) =>
    h.app.inject({ method: 'PATCH', url: `${PREFIX}/projects/${slug}/launch-binding`, headers: bearer(apiKey), payload: payload as Record<string, unknown> })

  it('the owner proposes it (202, checksummed): nothing changes until the operator confirms; every buyer sees the pending change', async () => {
    const { apiKey } = await approvedProject(h, 'alpha')
    const buyer = (await createKey(h, 'buyer')).apiKey
    const set = await patch('alpha', apiKey, { expectedTokenAddress: TOKEN })
    expect(set.statusCode).toBe(202)
    expect(set.json()).toEqual({
      slug: 'alpha',
      creatorAddress: expect.stringMatching(/^0x/),
      expectedTokenAddress: null,
      expectedSymbol: null,
      expectedName: null,
      pendingChange: {
        kind: 'launch_binding',
        status: 'awaiting_confirmation',
        proposed: {
          kind: 'launch_binding',
          creatorAddress: expect.stringMatching(/^0x/),
          expectedTokenAddress: '0x00000000000000000000000000000000000000A7',
          expectedSymbol: null,
          expectedName: null,
        },
        proposedAt: expect.any(String),
        confirmedAt: null,
        effectiveAt: null,
      },
    })
    const detail = (await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/alpha`, headers: bearer(buyer) })).json()
    expect(detail.changes.pending).toEqual([set.json().pendingChange])
    expect(detail.changes.history).toEqual([])
    expect((await h.store.sub.projects.get('alpha'))?.expectedTokenAddress).toBeNull()

    // The operator confirms; no order predates the proposal, so it is in force at once, in the history with its times.
    expect(await h.services.ownerChanges.confirm('alpha')).toMatchObject({ outcome: 'in_force' })
    const owner = (await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/alpha`, headers: bearer(apiKey) })).json()
    expect(owner.ownerStats.expectedTokenAddress).toBe('0x00000000000000000000000000000000000000A7')
    expect(owner.changes.pending).toEqual([])
    expect(owner.changes.history).toEqual([
      {
        kind: 'launch_binding',
        by: 'owner',
        outcome: 'effective',
        from: { kind: 'launch_binding', creatorAddress: expect.any(String), expectedTokenAddress: null, expectedSymbol: null, expectedName: null },
        to: {
          kind: 'launch_binding',
          creatorAddress: expect.any(String),
          expectedTokenAddress: '0x00000000000000000000000000000000000000A7',
          expectedSymbol: null,
          expectedName: null,
        },
        proposedAt: set.json().pendingChange.proposedAt,
        decidedAt: expect.any(String),
        effectiveAt: expect.any(String),
        reason: null,
      },
    ])
    // Clearing it is a change too; asking for the binding in force withdraws it (200).
    expect((await patch('alpha', apiKey, { expectedTokenAddress: null })).statusCode).toBe(202)
    const same = await patch('alpha', apiKey, { expectedTokenAddress: TOKEN })
    expect(same.statusCode).toBe(200)
    expect(same.json()).toMatchObject({ expectedTokenAddress: '0x00000000000000000000000000000000000000A7', pendingChange: null })
  })

  it('the owner proposes the symbol and name as the second fact (issue 22): in force once confirmed; a name alone or control characters are refused', async () => {
    const { apiKey } = await approvedProject(h, 'alpha')
    const set = await patch('alpha', apiKey, { expectedSymbol: ' MOON ', expectedName: 'Moon Protocol' })
    expect(set.statusCode).toBe(202)
    expect(set.json()).toMatchObject({
      expectedSymbol: null,
      pendingChange: { proposed: { expectedSymbol: 'MOON', expectedName: 'Moon Protocol', expectedTokenAddress: null } },
    })
    expect(await h.services.ownerChanges.confirm('alpha')).toMatchObject({ outcome: 'in_force' })
    expect(await h.store.sub.projects.get('alpha')).toMatchObject({ expectedSymbol: 'MOON', expectedName: 'Moon Protocol' })
    // Asking for what is in force: 200, nothing to confirm.
    const same = await patch('alpha', apiKey, { expectedSymbol: 'MOON' })
    expect(same.statusCode).toBe(200)
    expect(same.json()).toMatchObject({ expectedSymbol: 'MOON', expectedName: 'Moon Protocol', pendingChange: null })
    // Clearing the symbol clears the name with it.
    const cleared = await patch('alpha', apiKey, { expectedSymbol: null })
    expect(cleared.json()).toMatchObject({ pendingChange: { proposed: { expectedSymbol: null, expectedName: null } } })
    expect((await patch('alpha', apiKey, { expectedSymbol: 'MO\u0007ON' })).statusCode).toBe(400)
    expect((await patch('alpha', apiKey, { expectedSymbol: '   ' })).statusCode).toBe(400)
    const other = await approvedProject(h, 'beta', '10.0.0.2')
    expect((await patch('beta', other.apiKey, { expectedName: 'Beta' })).json()).toMatchObject({ code: 'invalid_token_text' })
  })

  it('refuses any other key (403), an unknown project (404), a malformed body (400) and a launched project (409)', async () => {
    const { apiKey } = await approvedProject(h, 'alpha')
    const other = (await createKey(h, 'other')).apiKey
    expect((await patch('alpha', other, { expectedTokenAddress: TOKEN })).json()).toMatchObject({ error: 'Forbidden', code: 'not_project_owner' })
    expect((await patch('nope', apiKey, { expectedTokenAddress: TOKEN })).statusCode).toBe(404)
    const bad = await patch('alpha', apiKey, { expectedTokenAddress: '0x12' })
    expect(bad.statusCode).toBe(400)
    expect(bad.json()).toMatchObject({ error: 'Bad request' })
    expect((await patch('alpha', apiKey, {})).statusCode).toBe(400)
    await markLaunched(h, 'alpha', { chain: 'base', tokenAddress: TOKEN, symbol: 'A', name: 'A', decimals: 18, launchedAt: 1 })
    expect((await patch('alpha', apiKey, { expectedTokenAddress: TOKEN })).json()).toMatchObject({ error: 'Conflict', code: 'binding_fixed' })
    expect((await h.store.sub.projects.get('alpha'))?.expectedTokenAddress).toBeNull()
  })
})
