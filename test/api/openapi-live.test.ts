import Ajv2020 from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { describe, expect, it } from 'vitest'
import { approvedProject, bearer, createHarness, createKey, markLaunched, PREFIX } from './harness.ts'

/**
 * The served OpenAPI document against the live server (issue 24: "the document cannot drift from the server again").
 * A JSON-schema validator (ajv, draft 2020-12 as OpenAPI 3.1 uses) compiled from the document at /openapi.json checks
 * every request the flow sends and every answer it gets, status included: an answer the document does not list, or a
 * body that does not fit the documented schema (a missing field, a number where the document says integer, an address
 * or time that misses its pattern or format), fails the test.
 */
type Doc = {
  paths: Record<
    string,
    Record<
      string,
      {
        requestBody?: { content: Record<string, { schema: { $ref: string } }> }
        responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }>
      }
    >
  >
  components: unknown
}

const BASE = 'https://prebuy.local/openapi.json'

function validatorOf(doc: Doc) {
  const ajv = new (
    Ajv2020 as unknown as new (
      options: object,
    ) => { addSchema(s: object): void; compile(s: object): ((v: unknown) => boolean) & { errors?: unknown } }
  )({
    strict: false,
    allErrors: true,
  })
  ;(addFormats as unknown as (a: unknown) => void)(ajv)
  ajv.addSchema({ $id: BASE, components: doc.components })
  const check = (ref: string, value: unknown, where: string) => {
    const validate = ajv.compile({ $ref: `${BASE}${ref}` })
    expect(validate(value), `${where}: ${JSON.stringify(validate.errors)}`).toBe(true)
  }
  return {
    request(method: string, path: string, body: unknown) {
      const operation = doc.paths[path]?.[method.toLowerCase()]
      expect(operation, `${method} ${path} is documented`).toBeDefined()
      check(operation!.requestBody!.content['application/json']!.schema.$ref, body, `${method} ${path} request`)
    },
    response(method: string, path: string, status: number, body: unknown) {
      const operation = doc.paths[path]?.[method.toLowerCase()]
      const documented = operation?.responses[String(status)]
      expect(documented, `${method} ${path} documents ${status}`).toBeDefined()
      const media = documented!.content?.['application/json']
      if (media) check(media.schema.$ref, body, `${method} ${path} ${status}`)
    },
  }
}

describe('the served OpenAPI document describes the live server', () => {
  it("the README's flow: every request fits the documented body and every answer its documented status and schema", async () => {
    const h = await createHarness()
    try {
      const doc = (await h.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as Doc
      const v = validatorOf(doc)
      /** Sends a request as a client generated from the document would, and checks both ends against it. */
      const call = async (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, url: string, options: { key?: string; body?: unknown } = {}) => {
        if (options.body !== undefined) v.request(method, path, options.body)
        const res = await h.app.inject({
          method,
          url: `${PREFIX}${url}`,
          ...(options.key ? { headers: bearer(options.key) } : {}),
          ...(options.body !== undefined ? { payload: options.body as object } : {}),
        })
        v.response(method, path, res.statusCode, res.json())
        return res
      }

      const created = await call('POST', '/api-keys', '/api-keys', { body: { label: 'readme' } })
      expect(created.statusCode).toBe(201)
      const key = created.json().apiKey as string
      expect((await call('GET', '/me', '/me', { key })).statusCode).toBe(200)
      const registration = {
        projectName: 'Moon',
        projectUrls: ['https://moon.example'],
        projectInfo: 'Our token.',
        contact: '@moon',
        email: 'team@moon.example',
      }
      expect((await call('POST', '/projects', '/projects', { body: registration })).statusCode).toBe(200)
      const owner = await approvedProject(h, 'alpha')
      await approvedProject(h, 'beta')
      await createKey(h, 'other')

      expect((await call('GET', '/me', '/me', { key })).statusCode).toBe(200)
      expect((await call('GET', '/projects', '/projects?limit=1', { key })).statusCode).toBe(200)
      expect((await call('GET', '/projects/{slug}', '/projects/alpha', { key })).statusCode).toBe(200)
      expect((await call('GET', '/projects/{slug}', '/projects/alpha', { key: owner.apiKey })).statusCode).toBe(200)
      const order = { slug: 'alpha', maxSpendUsdc: '250.5', maxFdvUsdc: '5000000', expiresInMs: 86_400_000 }
      const posted = await call('POST', '/orders', '/orders', {
        key,
        body: { items: [order, { ...order, slug: 'beta', maxFdvUsdc: null }, { ...order, slug: 'nope' }] },
      })
      expect(posted.json().results.map((r: { ok: boolean }) => r.ok)).toEqual([true, true, false])
      expect(
        (
          await call('PATCH', '/orders', '/orders', {
            key,
            body: {
              items: [
                { slug: 'alpha', maxSpendUsdc: '300' },
                { slug: 'beta', expiresInMs: 3_600_000 },
              ],
            },
          })
        ).statusCode,
      ).toBe(200)
      const page = await call('GET', '/orders', '/orders?limit=1', { key })
      expect(page.json().meta).toMatchObject({ total: 2, limit: 1 })
      expect((await call('GET', '/projects/{slug}/buyers', '/projects/alpha/buyers', { key: owner.apiKey })).statusCode).toBe(200)
      expect((await call('DELETE', '/orders', '/orders', { key, body: { items: [{ slug: 'beta' }] } })).statusCode).toBe(200)
      expect((await call('GET', '/orders', '/orders?status=deleted', { key })).json().meta.total).toBe(1)
      expect((await call('GET', '/wallet', '/wallet', { key })).statusCode).toBe(200)
      const withdrawal = {
        tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
        withdrawAddress: '0x000000000000000000000000000000000000dEaD',
        amount: '1',
      }
      expect((await call('POST', '/wallet/withdrawals', '/wallet/withdrawals', { key, body: withdrawal })).statusCode).toBe(200)
      await markLaunched(h, 'alpha', {
        chain: 'base',
        tokenAddress: '0x00000000000000000000000000000000000000a7',
        symbol: 'A',
        name: 'A',
        decimals: 18,
        launchedAt: 1,
      })
      expect((await call('GET', '/projects/{slug}', '/projects/alpha', { key: owner.apiKey })).statusCode).toBe(200)
      expect((await call('POST', '/feedback', '/feedback', { body: { message: 'works', name: 'readme', contact: 'me@example.com' } })).statusCode).toBe(200)

      // Refusals are documented answers too, in the documented shape.
      expect((await call('GET', '/projects/{slug}', '/projects/none', { key })).statusCode).toBe(404)
      expect((await call('GET', '/me', '/me', { key: 'prebuy_nope' })).statusCode).toBe(401)
      const bad = await h.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: bearer(key), payload: { items: [] } })
      v.response('POST', '/orders', bad.statusCode, bad.json())
      expect(bad.statusCode).toBe(400)
      const wrongMethod = await h.app.inject({ method: 'PUT', url: `${PREFIX}/orders`, headers: bearer(key), payload: { items: [] } })
      expect(wrongMethod.statusCode).toBe(405)
      v.response('POST', '/orders', 405, wrongMethod.json())
      const text = await h.app.inject({ method: 'POST', url: `${PREFIX}/orders`, headers: { ...bearer(key), 'content-type': 'text/plain' }, payload: 'items' })
      expect(text.statusCode).toBe(415)
      v.response('POST', '/orders', 415, text.json())
      const huge = await h.app.inject({ method: 'POST', url: `${PREFIX}/feedback`, payload: { message: 'x'.repeat(70_000), name: 'n', contact: 'c' } })
      expect(huge.statusCode).toBe(413)
      v.response('POST', '/feedback', 413, huge.json())
    } finally {
      await h.destroy()
    }
  })

  it('a PATCH item with only slug is refused by the document and by the server alike', async () => {
    const h = await createHarness()
    try {
      const doc = (await h.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })).json() as Doc
      const v = validatorOf(doc)
      expect(() => v.request('PATCH', '/orders', { items: [{ slug: 'alpha' }] })).toThrow()
      expect(() => v.request('POST', '/orders', { items: [{ slug: 'alpha', maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 1.5 }] })).toThrow()
      expect(() =>
        v.request('POST', '/wallet/withdrawals', { tokenAddress: '0x12', withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '1' }),
      ).toThrow()
      const { apiKey } = await createKey(h, 'k')
      const res = await h.app.inject({ method: 'PATCH', url: `${PREFIX}/orders`, headers: bearer(apiKey), payload: { items: [{ slug: 'alpha' }] } })
      expect(res.statusCode).toBe(400)
    } finally {
      await h.destroy()
    }
  })
})
