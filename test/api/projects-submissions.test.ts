import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { approvedProject, createHarness, createKey, plainProject, bearer, PREFIX, type Harness, markLaunched } from './harness.ts'

let h: Harness
let key: string
beforeEach(async () => {
  h = await createHarness()
  key = (await createKey(h, 'viewer')).apiKey
})
afterEach(async () => {
  await h.destroy()
})

const get = (url: string, apiKey = key) => h.app.inject({ method: 'GET', url: `${PREFIX}${url}`, headers: bearer(apiKey) })
const order = (slug: string, maxSpendUsdc: string, maxFdvUsdc: string | null, apiKey: string) =>
  h.app.inject({
    method: 'POST',
    url: `${PREFIX}/orders`,
    headers: bearer(apiKey),
    payload: { items: [{ slug, maxSpendUsdc, maxFdvUsdc, expiresInMs: 60_000 }] },
  })

describe('GET /projects', () => {
  it('pages of profiles (spec 2.3 fields exactly) with meta {total, limit, nextCursor}', async () => {
    await approvedProject(h, 'alpha')
    const res = await get('/projects')
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.meta).toEqual({ total: 1, limit: 20, nextCursor: null })
    const [profile] = body.data
    expect(Object.keys(profile).sort()).toEqual(['content', 'identity', 'status'])
    expect(Object.keys(profile.identity).sort()).toEqual(['displayName', 'microblogHandle', 'slug', 'socialId', 'socialUsername'])
    expect(Object.keys(profile.content).sort()).toEqual(['bannerImageUrl', 'bio', 'pfpUrl', 'teamMembers', 'websiteUrl'])
    expect(profile.status).toEqual({ isProfileRegistered: true, isLaunchVerified: true, hasSniperProtection: true })
    expect(profile.identity).toMatchObject({ slug: 'alpha', displayName: 'Project alpha' })
    expect(profile.content.bio).toEqual(['About alpha.', 'Second paragraph.'])
  })

  it('walks every project once with limit clamping and a null cursor at the end', async () => {
    for (let i = 0; i < 23; i += 1) await plainProject(h, `p${String(i).padStart(2, '0')}`)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const body = (await get(`/projects?limit=10${cursor ? `&cursor=${cursor}` : ''}`)).json() as {
        meta: { total: number; nextCursor: string | null }
        data: Array<{ identity: { slug: string } }>
      }
      expect(body.meta.total).toBeGreaterThanOrEqual(23)
      seen.push(...body.data.map((p) => p.identity.slug))
      if (cursor === null) await plainProject(h, 'p99-late')
      cursor = body.meta.nextCursor
    } while (cursor)
    expect(seen.slice(0, 23)).toEqual(Array.from({ length: 23 }, (_v, i) => `p${String(i).padStart(2, '0')}`))
    expect(new Set(seen).size).toBe(seen.length)
    expect((await get('/projects?limit=500')).json().meta.limit).toBe(100)
    expect((await get('/projects?limit=-3')).json().data).toHaveLength(1)
    expect((await get('/projects?cursor=')).statusCode).toBe(400)
  })

  it('refuses a cursor it could not have issued with 400 invalid_cursor, in the error shape', async () => {
    const notASlug = Buffer.from('Not A Slug!', 'utf8').toString('base64url')
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x41]).toString('base64url')
    // 'cDAx' is p01; 'cDAx_' decodes to the same bytes but is not how a cursor is written.
    for (const cursor of ['garbage', notASlug, binary, 'cDAx_', '%21%21', '....']) {
      const res = await get(`/projects?cursor=${cursor}`)
      expect(res.statusCode, cursor).toBe(400)
      expect(res.json(), cursor).toEqual({ error: 'Bad request', code: 'invalid_cursor', message: 'Invalid cursor' })
    }
    // A cursor naming a slug (issued or not) walks on after it.
    for (const slug of ['cur-a', 'cur-b', 'cur-c']) await plainProject(h, slug)
    type Page = { data: Array<{ identity: { slug: string } }> }
    const first = ((await get('/projects?limit=3')).json() as Page).data.map((p) => p.identity.slug)
    expect(first).toHaveLength(3)
    const after = (await get(`/projects?limit=2&cursor=${Buffer.from(first[0]!).toString('base64url')}`)).json() as Page
    expect(after.data.map((p) => p.identity.slug)).toEqual(first.slice(1))
  })
})

describe('GET /projects/{slug}', () => {
  it("public spend sums are rounded: a new buyer's owner-only spend cap cannot be read by diffing them", async () => {
    const owner = await approvedProject(h, 'rounded')
    const whale = await createKey(h, 'whale')
    await order('rounded', '1000', null, whale.apiKey)
    const before = (await get('/projects/rounded')).json().stats
    const newcomer = await createKey(h, 'newcomer')
    await order('rounded', '37.5', '400000', newcomer.apiKey)
    const after = (await get('/projects/rounded')).json().stats
    expect(after.orderCount).toBe(before.orderCount + 1)
    expect([before.committedSpendUsdc, after.committedSpendUsdc]).toEqual(['1000', '1000'])
    // The owner still sees the exact book, by price level.
    const levels = (await get('/projects/rounded', owner.apiKey)).json().ownerStats.depthByPriceLimit as Array<{ spendUsdc: string }>
    expect(levels.map((level) => level.spendUsdc)).toEqual(['37.5', '1000'])
  })

  it('profile plus stats; owner-only stats only for the owner; funded spend from wallet balances', async () => {
    const owner = await approvedProject(h, 'alpha')
    const buyerA = await createKey(h, 'a')
    const buyerB = await createKey(h, 'b')
    await order('alpha', '100', '400000', buyerA.apiKey)
    await order('alpha', '50', null, buyerB.apiKey)
    const keys = await h.services.keys.listKeys()
    const indexOf = (label: string) => keys.find((k) => k.label === label)!.userIndex
    h.wallets.setStable(indexOf('a'), 'base', 30_000_000n)
    h.wallets.setStable(indexOf('b'), 'base', 80_000_000n)
    h.wallets.setStable(indexOf('b'), 'second_chain', 999_000_000n)

    const asViewer = (await get('/projects/alpha')).json()
    expect(asViewer.identity.slug).toBe('alpha')
    expect(asViewer.stats).toEqual({ orderCount: 2, committedSpendUsdc: '150', fundedSpendUsdc: '80', filledOrderCount: 0, filledSpendUsdc: '0' })
    expect(asViewer.launch).toEqual({ status: 'pending', chain: 'base', tokenAddress: null, launchedAt: null })
    expect(asViewer.project).toMatchObject({ launchpad: 'clanker', chain: 'base', launchMethod: 'open_market' })
    expect(asViewer.ownerStats).toBeUndefined()

    const asOwner = (await get('/projects/alpha', owner.apiKey)).json()
    expect(asOwner.ownerStats).toEqual({
      buyersCount: 2,
      depthByPriceLimit: [
        { maxFdvUsdc: '400000', orderCount: 1, spendUsdc: '100', eligibleSpendUsdc: '150' },
        { maxFdvUsdc: null, orderCount: 1, spendUsdc: '50', eligibleSpendUsdc: '50' },
      ],
      expectedTokenAddress: null,
    })
  })

  it('funded spend is cached briefly', async () => {
    await approvedProject(h, 'alpha')
    await order('alpha', '100', null, key)
    await get('/projects/alpha')
    const calls = h.wallets.stablecoinBalancesCalls
    expect(calls).toBe(1)
    await get('/projects/alpha')
    expect(h.wallets.stablecoinBalancesCalls).toBe(calls)
    h.now.value += 60_000
    await get('/projects/alpha')
    expect(h.wallets.stablecoinBalancesCalls).toBe(calls + 1)
  })

  it('shows the launch once recorded', async () => {
    await approvedProject(h, 'alpha')
    await markLaunched(h, 'alpha', {
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000000a7',
      symbol: 'ALP',
      name: 'Alpha',
      decimals: 18,
      launchedAt: Date.UTC(2026, 0, 2),
    })
    expect((await get('/projects/alpha')).json().launch).toEqual({
      status: 'launched',
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000000a7',
      launchedAt: '2026-01-02T00:00:00.000Z',
    })
  })

  it('404 for an unknown slug', async () => {
    const res = await get('/projects/nope')
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ error: 'Not found', message: expect.any(String) })
  })
})

describe('GET /projects/{slug}/buyers', () => {
  it('follower count descending, paginated; owners see maxSpendUsdc and maxFdvUsdc', async () => {
    const owner = await approvedProject(h, 'alpha')
    const labels = ['b0', 'b1', 'b2', 'b3', 'b4']
    for (const label of labels) await order('alpha', '10', '5000', (await createKey(h, label)).apiKey)
    const keys = await h.services.keys.listKeys()
    const followers: Record<string, number> = { b1: 500, b3: 20_000, b4: 7 }
    for (const [label, count] of Object.entries(followers)) {
      await h.services.buyers.setSocialProfile(keys.find((k) => k.label === label)!.id, {
        socialId: 1,
        socialUsername: label,
        socialUrl: `https://social.example/${label}`,
        followerCount: count,
      })
    }
    const first = (await get('/projects/alpha/buyers?limit=3')).json()
    expect(first.meta).toMatchObject({ total: 5, limit: 3 })
    expect(first.data.map((b: { socialUsername: string | null }) => b.socialUsername)).toEqual(['b3', 'b1', 'b4'])
    expect(first.data[0]).toMatchObject({ followerCount: 20_000, orderStatus: 'active', socialUrl: 'https://social.example/b3' })
    expect(first.data[0].maxSpendUsdc).toBeUndefined()
    const second = (await get(`/projects/alpha/buyers?limit=3&cursor=${first.meta.nextCursor}`)).json()
    expect(second.data.map((b: { followerCount: number; socialUsername: null }) => [b.followerCount, b.socialUsername])).toEqual([
      [0, null],
      [0, null],
    ])
    expect(second.meta.nextCursor).toBeNull()
    const asOwner = (await get('/projects/alpha/buyers', owner.apiKey)).json()
    expect(asOwner.data[0]).toMatchObject({ maxSpendUsdc: '10', maxFdvUsdc: '5000' })
    // A deleted order removes the buyer.
    const b3 = keys.find((k) => k.label === 'b3')!
    await h.services.orders.deleteOrders(b3.id, [{ slug: 'alpha' }])
    expect((await get('/projects/alpha/buyers')).json().meta.total).toBe(4)
  })

  it('404 for an unknown slug', async () => {
    expect((await get('/projects/nope/buyers')).statusCode).toBe(404)
  })
})

describe('submissions', () => {
  const registration = { projectName: 'Alpha', projectUrls: ['https://alpha.example'], projectInfo: 'A token.', contact: '@alpha', email: 'team@alpha.example' }
  const keyRequest = {
    useCases: ['buying_pre_launch_tokens'],
    projectName: 'Agent',
    projectUrls: ['https://agent.example'],
    projectInfo: 'Buys.',
    contact: '@agent',
  }
  const feedback = { message: 'Nice', name: 'Agent', contact: '@agent' }
  const cases = [
    ['/projects', registration, 'registration'],
    ['/api-key-requests', keyRequest, 'key_request'],
    ['/feedback', feedback, 'feedback'],
  ] as const
  const post = (url: string, payload: object, ip = '192.0.2.1') => h.app.inject({ method: 'POST', url: `${PREFIX}${url}`, payload, remoteAddress: ip })

  it('200 receipt, stored as a pending review item with the requester IP; no key needed', async () => {
    for (const [url, body, kind] of cases) {
      const res = await post(url, body)
      expect(res.statusCode, url).toBe(200)
      expect(res.json()).toEqual({ status: 'received', message: expect.any(String) })
      const [item] = await h.services.reviews.list({ kind })
      expect(item).toMatchObject({ status: 'pending', requesterIp: '192.0.2.1', submission: body })
    }
  })

  it('project URLs must be http or https: javascript:, data:, file: and bare text are refused and nothing is stored', async () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,<b>x</b>', 'file:///etc/passwd', 'not a url', 'ftp://alpha.example']) {
      for (const [path, body] of [
        ['/projects', registration],
        ['/api-key-requests', keyRequest],
      ] as const) {
        const res = await post(path, { ...body, projectUrls: ['https://ok.example', url] })
        expect(res.statusCode, `${path} ${url}`).toBe(400)
        expect(res.json()).toMatchObject({ error: 'Bad request' })
      }
    }
    expect(await h.services.reviews.list({ kind: 'registration' })).toEqual([])
    expect(await h.services.reviews.list({ kind: 'key_request' })).toEqual([])
    expect((await post('/projects', { ...registration, projectUrls: ['http://alpha.example/x?y=1'] })).statusCode).toBe(200)
  })

  it('400 Bad request / Invalid request body for bodies outside the constraints', async () => {
    const bad: Array<[string, object]> = [
      ['/projects', { ...registration, projectName: '' }],
      ['/projects', { ...registration, projectName: 'x'.repeat(101) }],
      ['/projects', { ...registration, projectUrls: [] }],
      ['/projects', { ...registration, projectUrls: Array(11).fill('https://a.example') }],
      ['/projects', { ...registration, projectInfo: 'x'.repeat(2001) }],
      ['/projects', { ...registration, contact: 'x'.repeat(201) }],
      ['/projects', { ...registration, email: 'not-an-email' }],
      ['/projects', { ...registration, email: `${'x'.repeat(195)}@a.example` }],
      ['/projects', { ...registration, businessSignOff: '' }],
      ['/projects', { ...registration, businessSignOff: 'x'.repeat(501) }],
      ['/api-key-requests', { ...keyRequest, useCases: [] }],
      ['/api-key-requests', { ...keyRequest, useCases: ['other'] }],
      ['/api-key-requests', { ...keyRequest, useCases: ['buying_pre_launch_tokens', 'launching_a_token', 'launching_a_token'] }],
      ['/api-key-requests', { ...keyRequest, projectUrls: ['not a uri'] }],
      ['/feedback', { ...feedback, message: '' }],
      ['/feedback', { ...feedback, message: 'x'.repeat(2001) }],
      ['/feedback', { ...feedback, name: 'x'.repeat(201) }],
      ['/feedback', { name: 'a', contact: 'b' }],
    ]
    for (const [url, body] of bad) {
      const res = await post(url, body)
      expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 60)}`).toBe(400)
      expect(res.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
    }
    expect(await h.services.reviews.list()).toHaveLength(0)
  })

  it('403 Forbidden / Request blocked. for a blocked IP, email or contact', async () => {
    await h.services.blocklist.add('ip', '192.0.2.66')
    await h.services.blocklist.add('email', 'Spam@Example.com')
    await h.services.blocklist.add('contact', '@spammer')
    const attempts: Array<[string, object, string]> = [
      ['/feedback', feedback, '192.0.2.66'],
      ['/projects', { ...registration, email: 'spam@example.com' }, '192.0.2.1'],
      ['/feedback', { ...feedback, contact: ' @SPAMMER ' }, '192.0.2.1'],
      ['/api-key-requests', keyRequest, '192.0.2.66'],
    ]
    for (const [url, body, ip] of attempts) {
      const res = await post(url, body, ip)
      expect(res.statusCode, url).toBe(403)
      expect(res.json()).toMatchObject({ error: 'Forbidden', message: 'Request blocked.' })
    }
    expect(await h.services.reviews.list()).toHaveLength(0)
    await h.services.blocklist.remove('ip', '192.0.2.66')
    expect((await post('/feedback', feedback, '192.0.2.66')).statusCode).toBe(200)
  })

  it('per client IP, the three submission endpoints share an hourly budget: past it a 429 with Retry-After, nothing stored', async () => {
    const now = { value: Date.parse('2026-11-24T10:00:00Z') }
    const limited = await createHarness({ config: { submissionsPerIpPerHour: 3 }, now })
    try {
      const send = (url: string, payload: object, ip: string) => limited.app.inject({ method: 'POST', url: `${PREFIX}${url}`, payload, remoteAddress: ip })
      for (const [url, body] of cases) expect((await send(url, body, '192.0.2.20')).statusCode, url).toBe(200)
      for (const [url, body] of cases) {
        const refused = await send(url, body, '192.0.2.20')
        expect(refused.statusCode, url).toBe(429)
        expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0)
        expect(refused.json()).toMatchObject({ error: 'Too many requests' })
      }
      // Counted before the body is read: past the budget even a malformed body is refused with 429, not 400.
      expect((await send('/feedback', { nonsense: true }, '192.0.2.20')).statusCode).toBe(429)
      // Refused requests (400, 403) do not spend it: a client under its budget keeps all of it.
      for (let i = 0; i < 5; i += 1) expect((await send('/feedback', { nonsense: true }, '192.0.2.22')).statusCode).toBe(400)
      await limited.services.blocklist.add('ip', '192.0.2.23')
      for (let i = 0; i < 5; i += 1) expect((await send('/feedback', feedback, '192.0.2.23')).statusCode).toBe(403)
      await limited.services.blocklist.remove('ip', '192.0.2.23')
      for (const [url, body] of cases) expect((await send(url, body, '192.0.2.23')).statusCode, url).toBe(200)
      const last = await send('/feedback', { nonsense: true }, '192.0.2.22')
      expect(last.statusCode).toBe(400)
      expect(last.headers['x-ratelimit-remaining']).toBe('3')
      for (const [url, body] of cases) expect((await send(url, body, '192.0.2.22')).statusCode, url).toBe(200)
      expect((await send('/feedback', feedback, '192.0.2.22')).statusCode).toBe(429)
      // Another client has its own budget; the stored items are the three accepted ones.
      expect((await send('/feedback', feedback, '192.0.2.21')).statusCode).toBe(200)
      const stored = await Promise.all(['registration', 'key_request', 'feedback'].map((kind) => limited.services.reviews.list({ kind: kind as 'feedback' })))
      expect(stored.flat().filter((item) => item.requesterIp === '192.0.2.20')).toHaveLength(3)
      expect(stored.flat().filter((item) => item.requesterIp === '192.0.2.22')).toHaveLength(3)
      // The next hour opens a new window.
      now.value += 3_600_000
      expect((await send('/feedback', feedback, '192.0.2.20')).statusCode).toBe(200)
    } finally {
      await limited.destroy()
    }
  })

  it('503 Service unavailable with Retry-After while the desk is closed', async () => {
    await h.services.desk.close(120)
    for (const [url, body] of cases) {
      const res = await post(url, body)
      expect(res.statusCode, url).toBe(503)
      expect(res.headers['retry-after']).toBe('120')
      expect(res.json()).toMatchObject({ error: 'Service unavailable', message: expect.stringMatching(/try again later/i) })
    }
    await h.services.desk.open()
    expect((await post('/feedback', feedback)).statusCode).toBe(200)
  })
})

describe('review approvals', () => {
  it('approving a registration creates the project and issues a working owner key; approving twice is a conflict', async () => {
    const approved = await approvedProject(h, 'alpha')
    expect(approved.review).toMatchObject({ status: 'approved', projectSlug: 'alpha', issuedKeyId: approved.key.id })
    const me = (await get('/me', approved.apiKey)).json()
    expect(me).toMatchObject({ label: 'owner-alpha', ownedProjectSlugs: ['alpha'] })
    await expect(
      h.services.reviews.approveRegistration(approved.review.id, { slug: 'alpha2', creatorAddress: '0x01', launchpad: 'zora', chain: 'base' }),
    ).rejects.toMatchObject({ kind: 'conflict' })
  })

  it('a failed approval (slug taken) writes nothing and frees the label', async () => {
    await plainProject(h, 'taken')
    await h.services.reviews.submitRegistration({ projectName: 'T', projectUrls: ['x'], projectInfo: 'i', contact: 'c', email: 't@e.co' }, '1.1.1.1')
    const [item] = await h.services.reviews.list({ kind: 'registration' })
    await expect(
      h.services.reviews.approveRegistration(item!.id, { slug: 'taken', creatorAddress: '0x01', launchpad: 'zora', chain: 'base', label: 'owner-t' }),
    ).rejects.toMatchObject({ code: 'slug_taken' })
    expect((await h.services.reviews.get(item!.id))?.status).toBe('pending')
    expect((await h.services.keys.listKeys()).map((k) => k.label)).not.toContain('owner-t')
    expect((await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'owner-t' } })).statusCode).toBe(201)
  })

  it('a dev_buy approval on a launchpad other than Clanker is refused (it could never launch as announced); nothing is written; on Clanker it is approved', async () => {
    await h.services.reviews.submitRegistration({ projectName: 'D', projectUrls: ['x'], projectInfo: 'i', contact: 'c', email: 'd@e.co' }, '1.1.1.1')
    const [item] = await h.services.reviews.list({ kind: 'registration' })
    const approval = { slug: 'devbuy', creatorAddress: '0x01', chain: 'base', launchMethod: 'dev_buy', label: 'owner-d' } as const
    for (const launchpad of ['zora', 'doppler'] as const) {
      await expect(h.services.reviews.approveRegistration(item!.id, { ...approval, launchpad })).rejects.toMatchObject({
        code: 'launch_method_unsupported',
        kind: 'bad_request',
        message: expect.stringContaining(`The dev_buy launch method deploys through Clanker only, not ${launchpad}`),
      })
    }
    expect((await h.services.reviews.get(item!.id))?.status).toBe('pending')
    expect(await h.services.projects.getProject('devbuy')).toBeUndefined()
    expect((await h.services.keys.listKeys()).map((k) => k.label)).not.toContain('owner-d')
    await h.services.reviews.approveRegistration(item!.id, { ...approval, launchpad: 'clanker' })
    expect(await h.services.projects.getProject('devbuy')).toMatchObject({ launchMethod: 'dev_buy', launchpad: 'clanker' })
  })

  it('approving a key request issues a key; rejecting records the decision', async () => {
    await h.services.reviews.submitKeyRequest(
      { useCases: ['launching_a_token'], projectName: 'Req', projectUrls: ['https://r.example'], projectInfo: 'i', contact: 'c' },
      '1.1.1.1',
    )
    await h.services.reviews.submitKeyRequest(
      { useCases: ['launching_a_token'], projectName: 'Req2', projectUrls: ['https://r.example'], projectInfo: 'i', contact: 'c' },
      '1.1.1.1',
    )
    const [first, second] = await h.services.reviews.list({ kind: 'key_request' })
    const approved = await h.services.reviews.approveKeyRequest(first!.id)
    expect(approved.key.label).toBe('Req')
    expect((await get('/me', approved.apiKey)).statusCode).toBe(200)
    const rejected = await h.services.reviews.reject(second!.id, 'no')
    expect(rejected).toMatchObject({ status: 'rejected', decisionNote: 'no' })
    expect(await h.services.reviews.list({ status: 'pending' })).toHaveLength(0)
  })
})

describe('funded spend during a chain outage', () => {
  it('is null instead of failing the project page', async () => {
    await approvedProject(h, 'alpha')
    await order('alpha', '100', null, key)
    h.wallets.stablecoinBalances = async () => {
      throw new Error('rpc down')
    }
    const res = await get('/projects/alpha')
    expect(res.statusCode).toBe(200)
    expect(res.json().stats).toEqual({ orderCount: 1, committedSpendUsdc: '100', fundedSpendUsdc: null, filledOrderCount: 0, filledSpendUsdc: '0' })
  })
})
