import { describe, expect, it } from 'vitest'
import { STATUS_BY_KIND } from '../../src/api/http-status.ts'
import { buildOpenApiDocument } from '../../src/api/openapi.ts'
import { API_ERROR_CODES, ERROR_CODES, type ErrorCode } from '../../src/common/error-codes.ts'
import { ORDER_ITEM_CODES } from '../../src/domain/order-codes.ts'
import { createHarness, PREFIX, markLaunched } from './harness.ts'

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as {
    openapi: string
    info: { version: string; description: string }
    paths: Record<string, Record<string, { security: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>
    components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> }
  }

  it('is OpenAPI 3.1, version 0.1.0, with the 14 operations of the spec, the owner’s launch binding, OTC offer and dev-buy launch', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('0.1.0')
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
    expect(operations.sort()).toEqual(
      [
        'POST /api-keys',
        'POST /api-key-requests',
        'GET /me',
        'GET /projects',
        'GET /projects/{slug}',
        'GET /projects/{slug}/buyers',
        'PATCH /projects/{slug}/launch-binding',
        'PATCH /projects/{slug}/otc',
        'DELETE /projects/{slug}/otc',
        'GET /projects/{slug}/simulation',
        'POST /projects/{slug}/otc/deposit',
        'PATCH /projects/{slug}/dev-buy',
        'POST /projects/{slug}/dev-buy/launch',
        'POST /projects',
        'POST /orders',
        'GET /orders',
        'PATCH /orders',
        'DELETE /orders',
        'GET /wallet',
        'POST /wallet/withdrawals',
        'POST /feedback',
      ].sort(),
    )
    expect(doc.paths['/me']!.get!.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/feedback']!.post!.security).toEqual([])
  })

  it('is generated from the validating zod schemas and documents the "not shown" choices', () => {
    const registration = doc.components.schemas.RegistrationBody as {
      required: string[]
      properties: Record<string, { maxLength?: number; minItems?: number }>
    }
    expect([...registration.required].sort()).toEqual(['contact', 'email', 'projectInfo', 'projectName', 'projectUrls'])
    expect(registration.properties.projectName!.maxLength).toBe(100)
    const batchResult = doc.components.schemas.BatchResult!
    for (const code of Object.keys(ORDER_ITEM_CODES)) expect(batchResult.properties!.code!.description).toContain(code)
    expect(doc.info.description).toMatch(/365 days/)
    expect(doc.info.description).toMatch(/10000000/)
    expect(doc.components.schemas.Withdrawal!.properties).toHaveProperty('withdrawAddress')
    expect(doc.paths['/api-keys']!.post!.responses).toHaveProperty('409')
    expect(JSON.stringify(doc)).not.toContain('$schema')
  })

  it('lists every public error code from the one catalogue, with its status and meaning, and only those', () => {
    const errorBody = doc.components.schemas.ErrorBody as { properties: { code: { enum?: string[] } } }
    expect(errorBody.properties.code.enum).toEqual(API_ERROR_CODES)
    for (const code of API_ERROR_CODES) {
      expect(doc.info.description).toContain(`  - ${code} (${STATUS_BY_KIND[ERROR_CODES[code].kind]}): ${ERROR_CODES[code].meaning}`)
    }
    for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
      if (ERROR_CODES[code].surface !== 'api') expect(doc.info.description, code).not.toContain(`  - ${code} (`)
    }
    expect(doc.info.description).toContain('  - label_taken (409): ')
  })

  it('is served at /api/public/v1/openapi.json without a key', async () => {
    const h = await createHarness()
    try {
      const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/openapi.json` })
      expect(res.statusCode).toBe(200)
      expect(res.json()).toEqual(JSON.parse(JSON.stringify(doc)))
    } finally {
      await h.destroy()
    }
  })
})

describe('responses match the documented schemas', () => {
  it('every success body parses with its zod schema and carries no undocumented field', async () => {
    const S = await import('../../src/api/schemas.ts')
    const { approvedProject, bearer, createKey } = await import('./harness.ts')
    const h = await createHarness()
    try {
      const conforms = (schema: { safeParse(value: unknown): { success: boolean; data?: unknown; error?: unknown } }, body: unknown) => {
        const parsed = schema.safeParse(body)
        expect(parsed.error).toBeUndefined()
        // zod drops unknown keys: equality means nothing undocumented was sent.
        expect(parsed.data).toEqual(body)
      }
      const created = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'doc' } })
      conforms(S.CreatedApiKey, created.json())
      const key = created.json().apiKey as string
      const owner = await approvedProject(h, 'alpha')
      await markLaunched(h, 'alpha', {
        chain: 'base',
        tokenAddress: '0x00000000000000000000000000000000000000a7',
        symbol: 'A',
        name: 'A',
        decimals: 18,
        launchedAt: 1,
      })
      await createKey(h, 'other')
      const get = (url: string, apiKey = key) => h.app.inject({ method: 'GET', url: `${PREFIX}${url}`, headers: bearer(apiKey) })
      const send = (method: 'POST' | 'PATCH' | 'DELETE', items: unknown[]) =>
        h.app.inject({ method, url: `${PREFIX}/orders`, headers: bearer(key), payload: { items } })
      conforms(
        S.BatchResponse,
        (
          await send('POST', [
            { slug: 'alpha', maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 1 },
            { slug: 'x', maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 1 },
          ])
        ).json(),
      )
      conforms(S.BatchResponse, (await send('PATCH', [{ slug: 'alpha', maxSpendUsdc: '2' }])).json())
      conforms(S.BatchResponse, (await send('DELETE', [{ slug: 'alpha' }])).json())
      conforms(S.Me, (await get('/me')).json())
      conforms(S.ProjectPage, (await get('/projects')).json())
      conforms(S.ProjectDetail, (await get('/projects/alpha', owner.apiKey)).json())
      conforms(S.BuyerPage, (await get('/projects/alpha/buyers', owner.apiKey)).json())
      conforms(S.OrderPage, (await get('/orders?status=deleted')).json())
      conforms(S.Wallet, (await get('/wallet')).json())
      const withdrawal = await h.app.inject({
        method: 'POST',
        url: `${PREFIX}/wallet/withdrawals`,
        headers: bearer(key),
        payload: { tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '1' },
      })
      conforms(S.Withdrawal, withdrawal.json())
      conforms(S.Receipt, (await h.app.inject({ method: 'POST', url: `${PREFIX}/feedback`, payload: { message: 'm', name: 'n', contact: 'c' } })).json())
      conforms(S.ErrorBody, (await get('/projects/none')).json())
    } finally {
      await h.destroy()
    }
  })
})
