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

  it('the owner sets it (checksummed), sees it in ownerStats, and clears it with null', async () => {
    const { apiKey } = await approvedProject(h, 'alpha')
    const set = await patch('alpha', apiKey, { expectedTokenAddress: TOKEN })
    expect(set.statusCode).toBe(200)
    expect(set.json()).toEqual({
      slug: 'alpha',
      creatorAddress: expect.stringMatching(/^0x/),
      expectedTokenAddress: '0x00000000000000000000000000000000000000A7',
    })
    const detail = (await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/alpha`, headers: bearer(apiKey) })).json()
    expect(detail.ownerStats.expectedTokenAddress).toBe('0x00000000000000000000000000000000000000A7')
    expect((await h.store.sub.projects.get('alpha'))?.expectedTokenAddress).toBe('0x00000000000000000000000000000000000000A7')
    expect((await patch('alpha', apiKey, { expectedTokenAddress: null })).json().expectedTokenAddress).toBeNull()
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
