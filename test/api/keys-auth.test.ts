import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { PrebuyError } from '../../src/common/errors.ts'
import { createHarness, createKey, bearer, PREFIX, type Harness } from './harness.ts'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.destroy()
})

describe('POST /api-keys', () => {
  it('201 {apiKey, serviceWalletAddress, label}; the key is stored only as a hash', async () => {
    const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'alice' } })
    expect(res.statusCode).toBe(201)
    const body = res.json()
    expect(Object.keys(body).sort()).toEqual(['apiKey', 'label', 'serviceWalletAddress'])
    expect(body.apiKey).toMatch(/^prebuy_[0-9A-Za-z]{49}$/)
    expect(body.label).toBe('alice')
    expect(body.serviceWalletAddress).toBe(await h.wallets.walletAddress(0))
    const [record] = await h.services.keys.listKeys()
    expect(record?.keyHash).toMatch(/^[0-9a-f]{64}$/)
    expect(JSON.stringify(record)).not.toContain(body.apiKey)
    // Each key gets its own user index, so its own wallet.
    const second = await createKey(h, 'bob')
    expect(second.serviceWalletAddress).toBe(await h.wallets.walletAddress(1))
  })

  it('409 with a code for a taken label', async () => {
    await createKey(h, 'alice')
    const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'alice' } })
    expect(res.statusCode).toBe(409)
    expect(res.json()).toMatchObject({ error: 'Conflict', code: 'label_taken' })
    expect(typeof res.json().message).toBe('string')
  })

  it('two concurrent requests with one label: exactly one 201 and one 409', async () => {
    h.wallets.provisionDelayMs = 50
    const [a, b] = await Promise.all([
      h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'race' } }),
      h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'race' } }),
    ])
    expect([a.statusCode, b.statusCode].sort()).toEqual([201, 409])
    expect((await h.services.keys.listKeys()).filter((k) => k.label === 'race')).toHaveLength(1)
    // The label stays taken afterwards.
    const again = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'race' } })
    expect(again.statusCode).toBe(409)
  })

  it('400 for a missing, empty, blank or too long label', async () => {
    for (const payload of [{}, { label: '' }, { label: '   ' }, { label: 'x'.repeat(101) }, { label: 5 }]) {
      const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload })
      expect(res.statusCode, JSON.stringify(payload)).toBe(400)
      expect(res.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
    }
  })

  it('a failed provisioning frees the label', async () => {
    const original = h.wallets.walletAddress
    h.wallets.walletAddress = async () => {
      throw new Error('provider down at /secret/path')
    }
    const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'retry-me' } })
    expect(res.statusCode).toBe(500)
    expect(res.body).not.toContain('secret')
    h.wallets.walletAddress = original
    expect((await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'retry-me' } })).statusCode).toBe(201)
  })

  it('503 wallet_address_mismatch when the chain derives another wallet address: nothing is stored, the label stays free', async () => {
    const message = 'The wallet factory on base derives 0x1 for this key, not 0x2 as the service computed; nothing was stored.'
    h.wallets.failNextVerification = new PrebuyError('wallet_address_mismatch', message)
    const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'mismatch' } })
    expect(res.statusCode).toBe(503)
    expect(res.json()).toMatchObject({ code: 'wallet_address_mismatch', message })
    expect(await h.services.keys.listKeys()).toEqual([])
    expect((await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'mismatch' } })).statusCode).toBe(201)
  })
})

describe('per-IP limit on POST /api-keys', () => {
  it('429 with Retry-After and the exact body after the hourly limit', async () => {
    const limited = await createHarness({ config: { apiKeyCreationPerIpPerHour: 2 } })
    try {
      const post = (label: string, ip = '203.0.113.7') =>
        limited.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label }, remoteAddress: ip })
      // A refused request (a bad label: 400; a taken one: 409) does not spend the budget.
      expect((await post('')).statusCode).toBe(400)
      expect((await post('one')).statusCode).toBe(201)
      expect((await post('one')).statusCode).toBe(409)
      expect((await post('two')).statusCode).toBe(201)
      const res = await post('three')
      expect(res.statusCode).toBe(429)
      expect(res.json()).toEqual({ error: 'Too many requests', message: 'Rate limit exceeded. Retry after the window resets.', code: 'rate_limited' })
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0)
      expect(res.headers['x-ratelimit-remaining']).toBe('0')
      // Another IP is not affected.
      expect((await post('three', '203.0.113.8')).statusCode).toBe(201)
      // The next hour opens a new window.
      limited.now.value += 3_600_000
      expect((await post('four')).statusCode).toBe(201)
    } finally {
      await limited.destroy()
    }
  })

  it('behind a trusted proxy the client IP comes from X-Forwarded-For; from anyone else the header is ignored', async () => {
    const proxied = await createHarness({ config: { apiKeyCreationPerIpPerHour: 1 }, trustProxy: ['10.0.0.0/8'] })
    try {
      const post = (label: string, forwardedFor: string, remoteAddress = '10.1.2.3') =>
        proxied.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label }, remoteAddress, headers: { 'x-forwarded-for': forwardedFor } })
      expect((await post('p1', '198.51.100.1')).statusCode).toBe(201)
      expect((await post('p2', '198.51.100.1')).statusCode).toBe(429)
      expect((await post('p3', '198.51.100.2')).statusCode).toBe(201)
      // A client that is not a listed proxy cannot choose its address with the header: its own address counts.
      expect((await post('d1', '198.51.100.7', '203.0.113.50')).statusCode).toBe(201)
      expect((await post('d2', '198.51.100.8', '203.0.113.50')).statusCode).toBe(429)
      await proxied.services.blocklist.add('ip', '203.0.113.60')
      expect((await post('d3', '198.51.100.9', '203.0.113.60')).statusCode).toBe(403)
    } finally {
      await proxied.destroy()
    }
  })

  it('a blocked IP gets 403 Forbidden / Request blocked.', async () => {
    await h.services.blocklist.add('ip', '198.51.100.9')
    const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'x' }, remoteAddress: '198.51.100.9' })
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ error: 'Forbidden', message: 'Request blocked.' })
  })
})

describe('authentication', () => {
  const endpoints = [
    ['GET', '/me'],
    ['GET', '/projects'],
    ['GET', '/projects/alpha'],
    ['GET', '/projects/alpha/buyers'],
    ['POST', '/orders'],
    ['GET', '/orders'],
    ['PATCH', '/orders'],
    ['DELETE', '/orders'],
    ['GET', '/wallet'],
    ['POST', '/wallet/withdrawals'],
  ] as const

  it('401 {error, message} on every authenticated endpoint for missing, malformed, unknown and revoked keys', async () => {
    const { apiKey } = await createKey(h, 'revoked')
    const [record] = await h.services.keys.listKeys()
    // Use it once so the auth cache holds it: revocation must still win.
    expect((await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(apiKey) })).statusCode).toBe(200)
    await h.services.keys.revokeKey(record!.id)
    const unknown = `prebuy_${'1'.repeat(49)}`
    const headerSets: Array<Record<string, string>> = [
      {},
      { authorization: 'Basic abc' },
      { authorization: 'Bearer' },
      { authorization: 'Bearer not-a-key' },
      { authorization: `Bearer ${apiKey.slice(0, -1)}${apiKey.endsWith('a') ? 'b' : 'a'}` },
      { authorization: `Bearer ${unknown}` },
      bearer(apiKey),
    ]
    for (const [method, path] of endpoints) {
      for (const headers of headerSets) {
        const res = await h.app.inject({ method, url: `${PREFIX}${path}`, headers, payload: method === 'GET' ? undefined : { items: [] } })
        expect(res.statusCode, `${method} ${path} ${JSON.stringify(headers)}`).toBe(401)
        const body = res.json()
        expect(typeof body.error).toBe('string')
        expect(typeof body.message).toBe('string')
        expect(res.headers['x-ratelimit-limit']).toBeUndefined()
      }
    }
  })

  it('the scheme name is case-insensitive', async () => {
    const { apiKey } = await createKey(h, 'case')
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: { authorization: `bearer ${apiKey}` } })
    expect(res.statusCode).toBe(200)
  })
})

describe('GET /me', () => {
  it('returns wallet, label and owned project slugs (empty when none)', async () => {
    const { apiKey, serviceWalletAddress } = await createKey(h, 'me')
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(apiKey) })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ serviceWalletAddress, label: 'me', ownedProjectSlugs: [] })
  })
})

describe('key rotation (prebuy keys rotate)', () => {
  it('a new secret for the same record: the old one is refused at once (even cached), the new one authenticates', async () => {
    const created = await createKey(h, 'alice')
    const old = await h.services.keys.authenticate(created.apiKey)
    expect(old).toBeDefined()
    const rotated = await h.services.keys.rotateKey(old!.id)
    expect(rotated.record).toMatchObject({ id: old!.id, label: 'alice', userIndex: old!.userIndex, walletAddress: old!.walletAddress, revokedAt: null })
    expect(rotated.record.rotatedAt).toEqual(expect.any(Number))
    expect(await h.services.keys.authenticate(created.apiKey)).toBeUndefined()
    expect((await h.services.keys.authenticate(rotated.apiKey))?.id).toBe(old!.id)
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/orders`, headers: bearer(created.apiKey) })
    expect(res.statusCode).toBe(401)
    expect((await h.app.inject({ method: 'GET', url: `${PREFIX}/orders`, headers: bearer(rotated.apiKey) })).statusCode).toBe(200)
  })

  it('refuses a revoked or unknown key with a code', async () => {
    const created = await createKey(h, 'bob')
    const record = (await h.services.keys.authenticate(created.apiKey))!
    await h.services.keys.revokeKey(record.id)
    await expect(h.services.keys.rotateKey(record.id)).rejects.toMatchObject({ code: 'key_revoked' })
    await expect(h.services.keys.rotateKey('key_nope')).rejects.toMatchObject({ code: 'key_not_found' })
  })
})
