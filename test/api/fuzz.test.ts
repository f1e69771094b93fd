import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ENDPOINTS, type Endpoint } from '../../src/api/endpoints.ts'
import { approvedProject, createHarness, PREFIX, type Harness } from './harness.ts'

/**
 * Property-based requests against every public endpoint, over real HTTP with a real LevelDB: bodies and query strings
 * from arbitrary JSON, valid examples with one field replaced by something hostile, odd path parameters and content
 * types. Whatever comes in: never a 5xx, never a stack, every error in the `{error, message}` shape.
 */
let h: Harness
let base: string
let apiKey: string

/** A valid body per endpoint (method + path), mutated field by field below. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  'POST /api-keys': { label: 'fuzz-label' },
  'POST /api-key-requests': { useCases: ['launching_a_token'], projectName: 'P', projectUrls: ['https://p.example'], projectInfo: 'i', contact: 'c' },
  'POST /projects': { projectName: 'P', projectUrls: ['https://p.example'], projectInfo: 'i', contact: 'c', email: 'p@p.example' },
  'POST /feedback': { message: 'm', name: 'n', contact: 'c' },
  'POST /orders': { items: [{ slug: 'fuzz', maxSpendUsdc: '10', maxFdvUsdc: '1000000', expiresInMs: 3_600_000 }] },
  'PATCH /orders': { items: [{ slug: 'fuzz', maxSpendUsdc: '5' }] },
  'DELETE /orders': { items: [{ slug: 'fuzz' }] },
  'POST /wallet/withdrawals': {
    chain: 'base',
    tokenAddress: '0x0000000000000000000000000000000000000001',
    withdrawAddress: '0x000000000000000000000000000000000000dEaD',
    amount: '1',
  },
}

const hostile = fc.oneof(
  fc.constant(null),
  fc.constant(''),
  fc.constant('x'.repeat(100_000)),
  fc.constant('__proto__'),
  fc.constant({ __proto__: { polluted: true } }),
  fc.constant({ constructor: { prototype: { polluted: true } } }),
  fc.constant('\u001b[2J\u0000\ud800'),
  fc.constant(Number.MAX_SAFE_INTEGER),
  fc.constant(-1),
  fc.constant(1e308),
  fc.constant([[[[[[[[[[[]]]]]]]]]]]),
  fc.string({ unit: 'binary', maxLength: 64 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.jsonValue({ maxDepth: 3 }),
)

/** A valid example with one field (top level or in the first list item) replaced by a hostile value. */
const mutatedBody = (example: Record<string, unknown>) =>
  fc.tuple(fc.constantFrom(...Object.keys(example), 'extra'), hostile, fc.boolean()).map(([field, value, deep]) => {
    const copy = structuredClone(example) as Record<string, unknown>
    const list = Object.values(copy).find((v) => Array.isArray(v) && typeof v[0] === 'object') as Record<string, unknown>[] | undefined
    if (deep && list?.[0]) list[0][Object.keys(list[0])[0] ?? 'x'] = value
    else copy[field] = value
    return copy
  })

const pathOf = (endpoint: Endpoint, slug: string) => endpoint.path.replace('{slug}', encodeURIComponent(slug))

async function send(endpoint: Endpoint, path: string, body: unknown, query: string, contentType: string) {
  const headers: Record<string, string> = {}
  if (endpoint.auth) headers.authorization = `Bearer ${apiKey}`
  const withBody = endpoint.method !== 'GET' && body !== undefined
  if (withBody) headers['content-type'] = contentType
  const response = await fetch(`${base}${PREFIX}${path}${query}`, {
    method: endpoint.method,
    headers,
    ...(withBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  })
  return { status: response.status, text: await response.text() }
}

function expectWellFormed(response: { status: number; text: string }, what: string) {
  expect(response.status, what).toBeLessThan(500)
  expect(response.text, what).not.toMatch(/\n\s+at |node_modules|\.ts:\d+/)
  if (response.status >= 400) {
    const body = JSON.parse(response.text) as Record<string, unknown>
    expect(typeof body.error, what).toBe('string')
    expect(typeof body.message, what).toBe('string')
  }
}

beforeAll(async () => {
  // Limits high enough that the fuzzing measures validation, not the rate limiter.
  h = await createHarness({ config: { perKeyPerMinute: 1_000_000, apiKeyCreationPerIpPerHour: 1_000_000 } })
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  const address = h.app.server.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  base = `http://127.0.0.1:${address.port}`
  apiKey = (await approvedProject(h, 'fuzz')).apiKey
})
afterAll(async () => {
  await h?.destroy()
})

describe('fuzzing every public endpoint (fast-check, real HTTP, real LevelDB)', () => {
  for (const endpoint of ENDPOINTS) {
    const name = `${endpoint.method} ${endpoint.path}`
    it(`${name}: arbitrary and mutated input never gets a 5xx, a stack, or another error shape`, async () => {
      const example = EXAMPLES[name]
      const bodies = example ? fc.oneof(mutatedBody(example), fc.jsonValue({ maxDepth: 4 }), fc.string({ maxLength: 200 })) : fc.jsonValue({ maxDepth: 2 })
      const queries = fc.oneof(
        fc.constant(''),
        fc
          .dictionary(fc.constantFrom('cursor', 'limit', 'status', 'slug', 'chain', 'api_key', 'x'), fc.string({ unit: 'binary', maxLength: 40 }))
          .map((params) => `?${new URLSearchParams(params).toString()}`),
      )
      const slugs = fc.oneof(fc.constant('fuzz'), fc.string({ unit: 'binary', minLength: 1, maxLength: 80 }))
      const contentTypes = fc.constantFrom(
        'application/json',
        'application/json; charset=utf-8',
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
      )
      await fc.assert(
        fc.asyncProperty(bodies, queries, slugs, contentTypes, async (body, query, slug, contentType) => {
          expectWellFormed(await send(endpoint, pathOf(endpoint, slug), body, query, contentType), `${name} ${query} ${JSON.stringify(body)?.slice(0, 200)}`)
        }),
        { numRuns: 60 },
      )
    })
  }

  it('raw bodies that are not JSON at all (truncated, binary, deeply nested) get a 400 in the error shape', async () => {
    const post = ENDPOINTS.find((e) => e.method === 'POST' && e.path === '/orders')!
    const raws = ['{', '{"items": [', '\u0000\u0001', '['.repeat(10_000), `{"a":${'['.repeat(5_000)}`, 'null', '"string"', '1e999999']
    for (const raw of raws) expectWellFormed(await send(post, '/orders', raw, '', 'application/json'), raw.slice(0, 30))
  })
})
