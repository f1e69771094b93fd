import { describe, expect, it } from 'vitest'
import { buildOpenApiDocument } from '../../src/api/openapi.ts'
import { ORDER_ITEM_CODES } from '../../src/domain/order-codes.ts'
import { createHarness, PREFIX } from './harness.ts'

describe('OpenAPI document', () => {
  const doc = buildOpenApiDocument() as {
    openapi: string
    info: { version: string; description: string }
    paths: Record<string, Record<string, { security: unknown[]; requestBody?: unknown; responses: Record<string, unknown> }>>
    components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> }
  }

  it('is OpenAPI 3.1, version 0.1.0, with all 14 operations', () => {
    expect(doc.openapi).toBe('3.1.0')
    expect(doc.info.version).toBe('0.1.0')
    const operations = Object.entries(doc.paths).flatMap(([path, methods]) => Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`))
    expect(operations.sort()).toEqual(
      [
        'POST /api-keys', 'POST /api-key-requests', 'GET /me', 'GET /projects', 'GET /projects/{slug}', 'GET /projects/{slug}/buyers',
        'POST /projects', 'POST /orders', 'GET /orders', 'PATCH /orders', 'DELETE /orders', 'GET /wallet', 'POST /wallet/withdrawals', 'POST /feedback',
      ].sort(),
    )
    expect(doc.paths['/me']!.get!.security).toEqual([{ bearerAuth: [] }])
    expect(doc.paths['/feedback']!.post!.security).toEqual([])
  })

  it('is generated from the validating zod schemas and documents the "not shown" choices', () => {
    const registration = doc.components.schemas.RegistrationBody as { required: string[]; properties: Record<string, { maxLength?: number; minItems?: number }> }
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
