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

  /** Every schema node of the document with its path, $refs not followed (each component is walked once). */
  const nodes = (): Array<{ at: string; node: Record<string, unknown> }> => {
    const out: Array<{ at: string; node: Record<string, unknown> }> = []
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) {
        for (const [i, item] of value.entries()) walk(item, `${at}[${i}]`)
      } else if (value && typeof value === 'object') {
        out.push({ at, node: value as Record<string, unknown> })
        for (const [k, child] of Object.entries(value)) walk(child, `${at}.${k}`)
      }
    }
    walk(doc.components.schemas, 'schemas')
    return out
  }
  const schemaOf = (name: string) => doc.components.schemas[name] as unknown as { properties: Record<string, Record<string, unknown>> }
  const itemOf = (name: string) => (schemaOf(name).properties.items as { items: { $ref: string } }).items.$ref.replace('#/components/schemas/', '')

  it('is as strict as the server: integers, address and decimal patterns, date-time, limit bounds, a PATCH item needs a field', () => {
    // A JSON number is `number` only where fractions are meaningful (the OTC fill ratio); every other one is an integer.
    const numbers = nodes().filter(({ node }) => node.type === 'number')
    expect(numbers.map(({ at }) => at)).toEqual(['schemas.LaunchSimulation.properties.otc.anyOf[0].properties.fillRatio'])
    const create = schemaOf(itemOf('CreateOrdersBody'))
    expect(create.properties.expiresInMs).toMatchObject({ type: 'integer', minimum: 1, maximum: 31_536_000_000 })
    for (const body of ['OtcOfferBody', 'DevBuyParamsBody']) {
      expect(schemaOf(body).properties.lockSeconds, body).toMatchObject({ type: 'integer', minimum: 0 })
      expect(schemaOf(body).properties.vestingSeconds, body).toMatchObject({ type: 'integer', minimum: 0 })
    }
    // One complete object per alternative (src/api/openapi.ts expandRequiredAlternatives): a generated client's type
    // is then a union that refuses an item with only the slug.
    const patch = doc.components.schemas[itemOf('PatchOrdersBody')] as unknown as { anyOf: Array<{ required: string[]; properties: object }> }
    expect(patch.anyOf.map((option) => option.required)).toEqual([
      ['slug', 'maxSpendUsdc'],
      ['slug', 'maxFdvUsdc'],
      ['slug', 'expiresInMs'],
    ])
    for (const option of patch.anyOf) expect(Object.keys(option.properties)).toEqual(['slug', 'maxSpendUsdc', 'maxFdvUsdc', 'expiresInMs'])
    // Addresses carry their pattern wherever they appear, in requests and answers.
    const addressFields = nodes().filter(({ at }) => /\.(serviceWalletAddress|creatorAddress|tokenAddress|withdrawAddress|tokenAdmin|address)$/.test(at))
    expect(addressFields.length).toBeGreaterThan(15)
    for (const { at, node } of addressFields) {
      const text = JSON.stringify(node)
      expect(text, at).toContain('^0x[0-9a-fA-F]{40}$')
    }
    expect(create.properties.maxSpendUsdc!.pattern).toBe('^[0-9]+(\\.[0-9]{1,6})?$')
    expect(JSON.stringify(create.properties.maxFdvUsdc)).toContain('"pattern":"^[0-9]+(\\\\.[0-9]{1,6})?$"')
    expect(schemaOf('WithdrawalBody').properties.amount!.pattern).toContain('max')
    // Every time the server writes is an ISO 8601 date-time.
    const times = nodes().filter(({ at }) =>
      /\.(createdAt|updatedAt|executedAt|settleAt|at|proposedAt|confirmedAt|effectiveAt|decidedAt|generatedAt|orderedAt|launchedAt|requestedAt|start|lockupEnd|vestingEnd|asOf|lockedUntil)$/.test(
        at,
      ),
    )
    expect(times.length).toBeGreaterThan(20)
    for (const { at, node } of times) expect(JSON.stringify(node), at).toContain('"format":"date-time"')
    for (const path of ['/orders', '/projects', '/projects/{slug}/buyers']) {
      const limit = (doc.paths[path]!.get as unknown as { parameters: Array<{ name: string; schema: unknown }> }).parameters.find((p) => p.name === 'limit')
      expect(limit!.schema, path).toEqual({ type: 'integer', default: 20, minimum: 1, maximum: 100 })
    }
    expect((schemaOf('OrderPage').properties.meta as { required: string[] }).required).toContain('total')
  })

  it('documents 405 everywhere, 413 and 415 on every body, 503 storage_unavailable on every write', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const responses = operation.responses as Record<string, { description: string; headers?: Record<string, unknown> }>
        const at = `${method.toUpperCase()} ${path}`
        expect(responses['405']?.headers, at).toHaveProperty('Allow')
        if (operation.requestBody) {
          expect(responses, at).toHaveProperty('413')
          expect(responses, at).toHaveProperty('415')
        }
        if (method !== 'get') {
          expect(responses['503']?.description, at).toContain('storage_unavailable')
          expect(responses['503']?.headers, at).toHaveProperty('Retry-After')
        }
      }
    }
  })

  it('has an example on every request body and every response with a body, each fitting its schema', async () => {
    const { default: Ajv2020 } = await import('ajv/dist/2020.js')
    const { default: addFormats } = await import('ajv-formats')
    const ajv = new (
      Ajv2020 as unknown as new (
        o: object,
      ) => { addSchema(s: object): void; compile(s: object): ((v: unknown) => boolean) & { errors?: unknown } }
    )({
      strict: false,
      allErrors: true,
    })
    ;(addFormats as unknown as (a: unknown) => void)(ajv)
    ajv.addSchema({ $id: 'https://prebuy.local/doc', components: doc.components })
    let checked = 0
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const media = [
          ...(operation.requestBody ? [['request', (operation.requestBody as { content: Record<string, unknown> }).content['application/json']] as const] : []),
          ...Object.entries(operation.responses as Record<string, { content?: Record<string, unknown> }>)
            .filter(([, response]) => response.content)
            .map(([status, response]) => [status, response.content!['application/json']] as const),
        ] as Array<readonly [string, { schema: { $ref: string }; example?: unknown }]>
        for (const [where, content] of media) {
          const at = `${method.toUpperCase()} ${path} ${where}`
          expect(content.example, at).toBeDefined()
          const validate = ajv.compile({ $ref: `https://prebuy.local/doc${content.schema.$ref}` })
          expect(validate(content.example), `${at}: ${JSON.stringify(validate.errors)}`).toBe(true)
          checked += 1
        }
      }
    }
    expect(checked).toBeGreaterThan(150)
    const orders = doc.paths['/orders']!.post as unknown as { responses: Record<string, { content: Record<string, { example: unknown }> }> }
    expect(orders.responses['429']!.content['application/json']!.example).toMatchObject({ error: 'Too many requests' })
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
      conforms(S.ProjectPageSchema, (await get('/projects')).json())
      conforms(S.ProjectDetailSchema, (await get('/projects/alpha', owner.apiKey)).json())
      conforms(S.BuyerPageSchema, (await get('/projects/alpha/buyers', owner.apiKey)).json())
      conforms(S.OrderPageSchema, (await get('/orders?status=deleted')).json())
      conforms(S.Wallet, (await get('/wallet')).json())
      const withdrawal = await h.app.inject({
        method: 'POST',
        url: `${PREFIX}/wallet/withdrawals`,
        headers: bearer(key),
        payload: { tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '1' },
      })
      conforms(S.Withdrawal, withdrawal.json())
      conforms(S.ReceiptSchema, (await h.app.inject({ method: 'POST', url: `${PREFIX}/feedback`, payload: { message: 'm', name: 'n', contact: 'c' } })).json())
      conforms(S.ErrorBody, (await get('/projects/none')).json())
    } finally {
      await h.destroy()
    }
  })
})
