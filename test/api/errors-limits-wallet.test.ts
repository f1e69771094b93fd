import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { NATIVE_ETH_ADDRESS } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { FAKE_STABLE } from './fake-wallets.ts'
import { approvedProject, createHarness, createKey, bearer, PREFIX, type Harness, markLaunched } from './harness.ts'

let h: Harness
let key: string
beforeEach(async () => {
  h = await createHarness()
  key = (await createKey(h, 'k')).apiKey
})
afterEach(async () => {
  await h.destroy()
})

const expectErrorBody = (body: unknown) => {
  expect(body).toMatchObject({ error: expect.any(String), message: expect.any(String) })
}

describe('errors everywhere are {error, message}', () => {
  it('404 for an unknown route, 405 with Allow for a known path with another method', async () => {
    const missing = await h.app.inject({ method: 'GET', url: `${PREFIX}/nothing-here` })
    expect(missing.statusCode).toBe(404)
    expect(missing.json()).toMatchObject({ error: 'Not found', message: expect.any(String) })
    const wrong = await h.app.inject({ method: 'PUT', url: `${PREFIX}/orders`, headers: bearer(key) })
    expect(wrong.statusCode).toBe(405)
    expect(wrong.headers.allow).toContain('PATCH')
    expect(wrong.json()).toMatchObject({ error: 'Method not allowed' })
    const wrongParam = await h.app.inject({ method: 'DELETE', url: `${PREFIX}/projects/alpha` })
    expect(wrongParam.statusCode).toBe(405)
    expect(wrongParam.headers.allow).toContain('GET')
  })

  it('415 for a non-JSON body, 413 for an oversized one, 400 for malformed JSON', async () => {
    const text = await h.app.inject({ method: 'POST', url: `${PREFIX}/feedback`, headers: { 'content-type': 'text/plain' }, payload: 'hello' })
    expect(text.statusCode).toBe(415)
    expect(text.json()).toMatchObject({ error: 'Unsupported media type', message: expect.any(String) })
    const big = await h.app.inject({
      method: 'POST',
      url: `${PREFIX}/feedback`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ message: 'x'.repeat(200_000), name: 'a', contact: 'b' }),
    })
    expect(big.statusCode).toBe(413)
    expect(big.json()).toMatchObject({ error: 'Payload too large', message: expect.any(String) })
    for (const payload of ['{"message": ', '{bad json}', '']) {
      const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/feedback`, headers: { 'content-type': 'application/json' }, payload })
      expect(res.statusCode, payload).toBe(400)
      expect(res.json()).toEqual({ error: 'Bad request', message: 'Invalid request body' })
    }
    const proto = await h.app.inject({
      method: 'POST',
      url: `${PREFIX}/feedback`,
      headers: { 'content-type': 'application/json' },
      payload: '{"__proto__": {"x": 1}}',
    })
    expect(proto.statusCode).toBe(400)
  })

  it('a 500 leaks no message, stack or path', async () => {
    const original = h.services.projects.ownedSlugs
    h.services.projects.ownedSlugs = async () => {
      throw new Error('LEVEL_IO_ERROR: /var/lib/prebuy/secret-db/LOCK at Object.<anonymous>')
    }
    try {
      const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(key) })
      expect(res.statusCode).toBe(500)
      expect(res.json()).toEqual({ error: 'Internal server error', message: 'An unexpected error occurred.' })
      expect(res.body).not.toMatch(/secret|LEVEL|stack|at Object/)
      // An internal PrebuyError is hidden the same way.
      h.services.projects.ownedSlugs = async () => {
        throw new PrebuyError('index_without_record', 'db at /var/secret failed')
      }
      const again = await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(key) })
      expect(again.json()).toEqual({ error: 'Internal server error', message: 'An unexpected error occurred.' })
      // Rate-limit headers still go out on the authenticated 500.
      expect(again.headers['x-ratelimit-limit']).toBe('100')
    } finally {
      h.services.projects.ownedSlugs = original
    }
  })
})

describe('per-key rate limit', () => {
  it('X-RateLimit headers on every authenticated response, 429 with Retry-After under a burst, reset next window', async () => {
    // 10 s into a minute: the window resets 50 s later.
    h.now.value = Date.UTC(2026, 0, 1, 12, 0, 10)
    const resetAt = Date.UTC(2026, 0, 1, 12, 1, 0)
    const other = (await createKey(h, 'other')).apiKey
    const burst = await Promise.all(
      Array.from({ length: 105 }, (_v, i) =>
        i % 3 === 0
          ? h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(key) })
          : i % 3 === 1
            ? h.app.inject({ method: 'GET', url: `${PREFIX}/orders`, headers: bearer(key) })
            : h.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: bearer(key), payload: { items: [] } }),
      ),
    )
    const statuses = burst.map((r) => r.statusCode)
    expect(statuses.filter((s) => s === 429)).toHaveLength(5)
    // Which five are limited depends on the order the concurrent requests reach the hook; every other one gets its
    // normal answer (an empty POST batch is a 400).
    burst.forEach((res, i) => {
      if (res.statusCode !== 429) expect(res.statusCode).toBe(i % 3 === 2 ? 400 : 200)
    })
    for (const res of burst) {
      expect(res.headers['x-ratelimit-limit']).toBe('100')
      expect(res.headers['x-ratelimit-reset']).toBe(String(resetAt))
      expect(Number(res.headers['x-ratelimit-remaining'])).toBeGreaterThanOrEqual(0)
    }
    const remaining = burst
      .filter((r) => r.statusCode !== 429)
      .map((r) => Number(r.headers['x-ratelimit-remaining']))
      .sort((a, b) => b - a)
    expect(remaining).toEqual(Array.from({ length: 100 }, (_v, i) => 99 - i))
    const limited = burst.find((r) => r.statusCode === 429)!
    expect(limited.json()).toMatchObject({ error: 'Too many requests', message: 'Rate limit exceeded. Retry after the window resets.' })
    expect(limited.headers['retry-after']).toBe('50')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    // Another key has its own window.
    expect((await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(other) })).statusCode).toBe(200)
    h.now.value = resetAt
    const next = await h.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(key) })
    expect(next.statusCode).toBe(200)
    expect(next.headers['x-ratelimit-remaining']).toBe('99')
  })
})

describe('wallet', () => {
  it('GET /wallet: every chain, spend currency first, native ETH, tokens of launched projects', async () => {
    await approvedProject(h, 'alpha')
    await markLaunched(h, 'alpha', {
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000000a7',
      symbol: 'ALP',
      name: 'Alpha',
      decimals: 18,
      launchedAt: 1,
    })
    const [record] = await h.services.keys.listKeys()
    h.wallets.setStable(record!.userIndex, 'base', 1_500_000n)
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/wallet`, headers: bearer(key) })
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.serviceWalletAddress).toBe(record!.walletAddress)
    expect(Object.keys(body.balances).sort()).toEqual(['base', 'second_chain'])
    expect(body.balances.base.map((e: { address: string }) => e.address)).toEqual([
      FAKE_STABLE.base,
      NATIVE_ETH_ADDRESS,
      '0x00000000000000000000000000000000000000a7',
    ])
    expect(body.balances.base[0]).toEqual({ address: FAKE_STABLE.base, symbol: 'USDC', name: 'USD Coin', decimals: 6, balance: '1500000' })
    expect(body.balances.second_chain[0]).toMatchObject({ address: FAKE_STABLE.second_chain, balance: '0' })
    expect(res.headers['x-ratelimit-remaining']).toBeDefined()
  })

  it('POST /wallet/withdrawals: defaults to base, returns {txHash, chain, tokenAddress, withdrawAddress, amount}', async () => {
    const [record] = await h.services.keys.listKeys()
    const to = '0x000000000000000000000000000000000000dEaD'
    const res = await h.app.inject({
      method: 'POST',
      url: `${PREFIX}/wallet/withdrawals`,
      headers: bearer(key),
      payload: { tokenAddress: FAKE_STABLE.base, withdrawAddress: to, amount: '1.5' },
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ txHash: `0x${'ab'.repeat(32)}`, chain: 'base', tokenAddress: FAKE_STABLE.base, withdrawAddress: to, amount: '1500000' })
    expect(h.wallets.withdrawals).toEqual([{ userIndex: record!.userIndex, chain: 'base', tokenAddress: FAKE_STABLE.base, to, amount: '1.5' }])
    const max = await h.app.inject({
      method: 'POST',
      url: `${PREFIX}/wallet/withdrawals`,
      headers: bearer(key),
      payload: { chain: 'second_chain', tokenAddress: NATIVE_ETH_ADDRESS, withdrawAddress: to, amount: 'max' },
    })
    expect(max.json()).toMatchObject({ chain: 'second_chain', amount: '42' })
  })

  it('400 for a bad body or a refusal of the wallet service (nothing spent)', async () => {
    const bodies = [
      {},
      { tokenAddress: FAKE_STABLE.base, withdrawAddress: '0x01', amount: 5 },
      { chain: 'mainnet', tokenAddress: 'x', withdrawAddress: 'y', amount: '1' },
    ]
    for (const payload of bodies) {
      const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/wallet/withdrawals`, headers: bearer(key), payload })
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
    }
    const refused = await h.app.inject({
      method: 'POST',
      url: `${PREFIX}/wallet/withdrawals`,
      headers: bearer(key),
      payload: { tokenAddress: FAKE_STABLE.base, withdrawAddress: 'nope', amount: '1' },
    })
    expect(refused.statusCode).toBe(400)
    expect(refused.json()).toMatchObject({ error: 'Bad request', code: 'invalid_address' })
    expectErrorBody(refused.json())
    expect(h.wallets.withdrawals).toHaveLength(0)
  })
})

describe('withdrawal refusals as the document promises them', () => {
  const withdraw = () =>
    h.app.inject({
      method: 'POST',
      url: `${PREFIX}/wallet/withdrawals`,
      headers: bearer(key),
      payload: { tokenAddress: FAKE_STABLE.base, withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '0.5' },
    })

  it('amount_below_minimum carries details.minimum, tokens_locked its details, insufficient_balance details.available', async () => {
    h.wallets.failNextWithdrawal = new PrebuyError('amount_below_minimum', 'below', { details: { minimum: '1000000' } })
    expect((await withdraw()).json()).toEqual({ error: 'Bad request', message: 'below', code: 'amount_below_minimum', details: { minimum: '1000000' } })
    const locked = { available: '0', locked: '5000', nextUnlockAt: '2026-12-01T00:00:00.000Z', lockedUntil: '2027-01-01T00:00:00.000Z' }
    h.wallets.failNextWithdrawal = new PrebuyError('tokens_locked', 'locked', { details: locked })
    expect((await withdraw()).json()).toMatchObject({ code: 'tokens_locked', details: locked })
    // Only the fields the code publishes: anything else in the error's details stays inside.
    h.wallets.failNextWithdrawal = new PrebuyError('insufficient_balance', 'short', { details: { available: '12', internal: 'no' } })
    expect((await withdraw()).json()).toMatchObject({ code: 'insufficient_balance', details: { available: '12' } })
    h.wallets.failNextWithdrawal = new PrebuyError('invalid_destination', 'self', { details: { field: 'withdrawAddress' } })
    expect((await withdraw()).json()).not.toHaveProperty('details')
  })

  it("a 429 of the withdrawal limit carries that limit's X-RateLimit-* headers; a 429 without a window carries none", async () => {
    const resetAt = Date.now() + 1_200_000
    h.wallets.failNextWithdrawal = new PrebuyError('withdrawal_rate_limited', 'too many', {
      details: { retryAfterSeconds: 1_200, rateLimit: { limit: 10, remaining: 0, resetAt } },
    })
    const limited = await withdraw()
    expect(limited.statusCode).toBe(429)
    expect(limited.headers['retry-after']).toBe('1200')
    expect(limited.headers['x-ratelimit-limit']).toBe('10')
    expect(limited.headers['x-ratelimit-remaining']).toBe('0')
    expect(limited.headers['x-ratelimit-reset']).toBe(String(resetAt))
    h.wallets.failNextWithdrawal = new PrebuyError('too_many_operations', 'busy')
    const busy = await withdraw()
    expect(busy.statusCode).toBe(429)
    expect(busy.headers['x-ratelimit-limit']).toBeUndefined()
    // An ordinary answer still carries the request limit's headers.
    const ok = await withdraw()
    expect(ok.statusCode).toBe(200)
    expect(Number(ok.headers['x-ratelimit-limit'])).toBeGreaterThan(10)
  })
})

describe('logs', () => {
  it('requests are logged as structured lines without API keys, even on errors', async () => {
    const { Writable } = await import('node:stream')
    const { createLogger } = await import('../../src/common/logger.ts')
    const lines: string[] = []
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(String(chunk))
        callback()
      },
    })
    const logged = await createHarness({ logger: createLogger({ level: 'debug', destination }) })
    try {
      const created = await logged.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'logged' } })
      const apiKey = created.json().apiKey as string
      await logged.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(apiKey) })
      logged.services.projects.ownedSlugs = async () => {
        throw new Error('boom')
      }
      await logged.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(apiKey) })
      expect(lines.length).toBeGreaterThan(3)
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow()
      expect(lines.join('')).toContain('boom')
      expect(lines.join('')).not.toContain(apiKey)
      expect(lines.join('')).not.toContain(apiKey.slice(7, 30))

      // A key sent in the query (wrongly) is never logged, nor is any query (a client cannot fill the disk with URLs).
      lines.length = 0
      await logged.app.inject({ method: 'GET', url: `${PREFIX}/me?api_key=${apiKey}&pad=${'x'.repeat(5_000)}` })
      const text = lines.join('')
      expect(text).not.toContain(apiKey.slice(7, 30))
      expect(text).not.toContain('xxxxxxxxxx')
      expect(text).toContain(`"url":"${PREFIX}/me?(query: `)
      for (const line of lines) expect(line.length).toBeLessThan(1_000)
    } finally {
      await logged.destroy()
    }
  })

  it('a flood of requests cannot fill the disk: the request log keeps a budget per minute and counts the rest in one line', async () => {
    const { Writable } = await import('node:stream')
    const { createLogger } = await import('../../src/common/logger.ts')
    const lines: Array<{ msg: string; level: number; notLogged?: Record<string, number>; res?: { statusCode: number } }> = []
    const destination = new Writable({
      write(chunk, _encoding, callback) {
        lines.push(JSON.parse(String(chunk)))
        callback()
      },
    })
    const flooded = await createHarness({ logger: createLogger({ level: 'info', destination }), requestLogPerMinute: 5 })
    try {
      for (let i = 0; i < 300; i++) await flooded.app.inject({ method: 'GET', url: `${PREFIX}/no-such-thing-${i}` })
      await flooded.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer('prebuy_sk_wrong') })
      expect(lines.filter((line) => line.msg === 'incoming request')).toHaveLength(5)
      expect(lines.filter((line) => line.msg === 'request completed')).toHaveLength(5)
      expect(lines).toHaveLength(10)

      // A 5xx is always logged, budget or not.
      flooded.services.projects.ownedSlugs = async () => {
        throw new Error('store exploded')
      }
      const key = await createKey(flooded, 'five-hundred')
      await flooded.app.inject({ method: 'GET', url: `${PREFIX}/me`, headers: bearer(key.apiKey) })
      expect(lines.some((line) => line.msg === 'request completed' && line.res?.statusCode === 500)).toBe(true)

      // The next minute's first request says how many were not logged, by status class.
      lines.length = 0
      flooded.now.value += 60_000
      await flooded.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
      const summary = lines.find((line) => line.msg === 'requests not logged (over the request log budget)')
      expect(summary?.notLogged).toEqual({ '4xx': 296, '2xx': 1 })
      expect(lines.filter((line) => line.msg === 'incoming request')).toHaveLength(1)
    } finally {
      await flooded.destroy()
    }
  })
})
