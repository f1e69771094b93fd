import { z } from 'zod'
import { API_ERROR_CODES, ERROR_CODES } from '../common/error-codes.ts'
import { STATUS_BY_KIND } from './http-status.ts'
import { ORDER_ITEM_CODES, ORDER_ITEM_STATUSES } from '../domain/order-codes.ts'
import { ENDPOINTS, type Endpoint, type EndpointResponse } from './endpoints.ts'
import { errorExample, exampleOf } from './openapi-examples.ts'
import * as S from './schemas.ts'

export const API_VERSION = '0.1.0'
export const API_PREFIX = '/api/public/v1'

/** Named schemas under components.schemas; everything else is inlined. */
const COMPONENTS: Record<string, z.ZodType> = {
  ErrorBody: S.ErrorBody,
  Receipt: S.ReceiptSchema,
  CreateApiKeyBody: S.CreateApiKeyBody,
  CreatedApiKey: S.CreatedApiKey,
  KeyRequestBody: S.KeyRequestBody,
  RegistrationBody: S.RegistrationBody,
  FeedbackBody: S.FeedbackBody,
  Me: S.Me,
  ProjectProfile: S.ProjectProfileSchema,
  ProjectPage: S.ProjectPageSchema,
  ProjectDetail: S.ProjectDetailSchema,
  LaunchBindingBody: S.LaunchBindingBody,
  LaunchBinding: S.LaunchBindingSchema,
  OtcOfferBody: S.OtcOfferBody,
  OtcOffer: S.OtcOfferSchema,
  OtcOfferEdit: S.OtcOfferEdit,
  PendingChange: S.PendingChange,
  ChangeEntry: S.ChangeEntry,
  ChangeTerms: S.ChangeTerms,
  ProjectChanges: S.ProjectChanges,
  LaunchSimulation: S.LaunchSimulationSchema,
  DevBuyParamsBody: S.DevBuyParamsBody,
  DevBuyLaunch: S.DevBuyLaunchSchema,
  Buyer: S.Buyer,
  BuyerPage: S.BuyerPageSchema,
  CreateOrderItem: S.CreateOrderItem,
  PatchOrderItem: S.PatchOrderItem,
  DeleteOrderItem: S.DeleteOrderItem,
  CreateOrdersBody: S.CreateOrdersBody,
  PatchOrdersBody: S.PatchOrdersBody,
  DeleteOrdersBody: S.DeleteOrdersBody,
  BatchResult: S.BatchResult,
  BatchResponse: S.BatchResponse,
  Order: S.Order,
  OrderPage: S.OrderPageSchema,
  Wallet: S.Wallet,
  WithdrawalBody: S.WithdrawalBody,
  Withdrawal: S.Withdrawal,
}

/** " (details: a, b)" for a code that publishes fields in `details`. */
const detailsNote = (code: (typeof API_ERROR_CODES)[number]): string => {
  const fields = (ERROR_CODES[code] as { details?: readonly string[] }).details
  return fields ? ` (details: ${fields.join(', ')})` : ''
}

const DESCRIPTION = `Pre-launch buy orders: register projects, place orders that auto-buy a token at launch, manage the smart wallet.

Choices where the specification says "not shown":
- Keys: \`prebuy_\` + 43 base62 random characters + 6 checksum characters; stored only as sha256. POST /api-keys takes {label} and answers 201 {apiKey, serviceWalletAddress, label}; a taken label is 409 (code label_taken); default per-IP limit 10 keys per hour.
- Status numbers: invalid body 400, blocked 403, desk closed 503 with Retry-After; while the daemon shuts down, a request on a kept-alive connection gets 503 with Retry-After: 5. Error bodies may add \`code\` and (for 400) \`details\`.
- Rate limit: fixed 60 s windows per key; X-RateLimit-Limit/Remaining/Reset (epoch ms) on every authenticated response.
- Browser clients (CORS): off by default; the operator lists exact allowed origins (config cors.origins, \`*\` refused). A listed origin's preflight gets 204 with Access-Control-Allow-Origin (that origin), -Methods, -Headers (authorization, content-type), -Max-Age 600; its other answers expose X-RateLimit-* and Retry-After. Other origins get no CORS headers. No credentials (keys are bearer tokens, never cookies).
- Orders: POST needs slug, maxSpendUsdc, maxFdvUsdc (null = no price limit) and expiresInMs; PATCH needs slug and at least one other field. Bounds: maxSpendUsdc 0 < x <= 10000000 with at most 6 decimals; maxFdvUsdc 0 < x <= 1e15 with at most 6 decimals; expiresInMs integer 1..31536000000 (365 days).
- Order states: active, deleted, executing (a buy in flight), filled, expired (expiry after launch elapsed, funds stay), failed.
- Transitions: POST on an active order is unchanged and does not modify it; POST after deleted/expired/failed creates a new order; POST after launch is project_launched; PATCH works on active orders only (also after launch); DELETE of an executing order is order_executing; DELETE without an active order is already_deleted and leaves the record as it is. A slug repeated in one batch: the first occurrence is processed, later ones get duplicate_slug. All items of one request are written in one atomic batch.
- GET /orders: status filter (one state; default every state but deleted), cursor, limit (default 20, clamped 1..100); spend cap descending; page {data, meta {total, limit, nextCursor}} (total: the key's orders under the same filter).
- Buyers: {serviceWalletAddress, socialUsername, socialUrl, followerCount (0 without a linked profile), orderStatus, orderedAt}, plus maxSpendUsdc and maxFdvUsdc for the owning key; same cursor and limit as /projects.
- Project detail: the profile plus project, launch, stats (orderCount, committedSpendUsdc, fundedSpendUsdc, filledOrderCount, filledSpendUsdc), otc (a pooled_otc project's offer and settlement, else null) and, for the owning key only, ownerStats (buyersCount, depthByPriceLimit).
- Pooled OTC (launch method pooled_otc): the owner sets the offer with PATCH /projects/{slug}/otc and deposits the tokens from its wallet with POST /projects/{slug}/otc/deposit (DELETE /projects/{slug}/otc withdraws it before it settles); at settleAt the service settles every eligible order in one transaction (docs/launch-methods.md); GET /projects/{slug}/simulation shows what it would do now. Orders left out stay active.
- Submissions: 200 receipt; the desk (503, Retry-After default 3600 s) and the blocklist (IP, email, contact) apply to registrations, key requests and feedback.
- Batch statuses:\n${Object.entries(ORDER_ITEM_STATUSES)
  .map(([k, v]) => `  - ${k}: ${v}`)
  .join('\n')}
- Batch codes (full list):\n${Object.entries(ORDER_ITEM_CODES)
  .map(([k, v]) => `  - ${k}: ${v}`)
  .join('\n')}
- Error codes (full list; the status follows from the code):\n${API_ERROR_CODES.map((code) => `  - ${code} (${STATUS_BY_KIND[ERROR_CODES[code].kind]}): ${ERROR_CODES[code].meaning}${detailsNote(code)}`).join('\n')}
- Withdrawals: body {chain?, tokenAddress, withdrawAddress, amount} (amount decimal in token units or "max"); answer {txHash, chain, tokenAddress, withdrawAddress, amount (smallest unit)}.
- Key revocation and rotation are operator actions (CLI / admin API); no webhooks or push events.
- Versioning: the path carries v1; no deprecation policy yet.`

type JsonObject = Record<string, unknown>

function buildComponents(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>()
  for (const [id, schema] of Object.entries(COMPONENTS)) registry.add(schema, { id })
  const generated = z.toJSONSchema(registry, {
    io: 'input',
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, JsonObject> }
  const out: Record<string, JsonObject> = {}
  for (const [id, schema] of Object.entries(generated.schemas)) {
    const { $schema: _schema, $id: _id, ...rest } = schema
    out[id] = expandRequiredAlternatives(rest)
  }
  return out
}

/**
 * An object whose `anyOf` lists only alternative `required` sets (PatchOrderItem: the slug and at least one other field)
 * is valid JSON Schema, but generated clients cannot express it: openapi-typescript turns each bare `{required}` into
 * `unknown`, which makes the whole type `unknown` and lets an item with only the slug type-check. The same rule written
 * as one complete object per alternative (each with the properties and its own required set) means the same to a
 * validator and becomes a union a client's compiler checks (test/api/openapi-typed-client.test.ts).
 */
export function expandRequiredAlternatives(schema: JsonObject): JsonObject {
  const { anyOf, properties, required, type, description, ...rest } = schema as JsonObject & {
    anyOf?: JsonObject[]
    required?: string[]
  }
  const bare = Array.isArray(anyOf) && anyOf.every((member) => Object.keys(member).length === 1 && Array.isArray(member.required))
  if (!bare || type !== 'object' || !properties) return schema
  return {
    ...(description === undefined ? {} : { description }),
    anyOf: anyOf.map((member) => ({
      type: 'object',
      properties,
      required: [...new Set([...(required ?? []), ...(member.required as string[])])],
      ...rest,
    })),
  }
}

const refTo = (schema: z.ZodType): JsonObject => {
  const id = Object.entries(COMPONENTS).find(([, candidate]) => candidate === schema)?.[0]
  if (!id) throw new Error('response schemas must be named components')
  return { $ref: `#/components/schemas/${id}` }
}

function parameters(endpoint: Endpoint): JsonObject[] {
  const out: JsonObject[] = []
  for (const [name, description] of Object.entries(endpoint.pathParams ?? {})) {
    out.push({ name, in: 'path', required: true, description, schema: { type: 'string' } })
  }
  if (endpoint.query) {
    const json = z.toJSONSchema(endpoint.query, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, JsonObject> }
    for (const [name, schema] of Object.entries(json.properties ?? {})) {
      const { description, ...rest } = schema
      // limit travels as a string in the URL but is an integer for the caller; the server clamps it to 1..100 (clampLimit).
      const shown = name === 'limit' ? { type: 'integer', default: 20, minimum: 1, maximum: 100 } : rest
      out.push({ name, in: 'query', required: false, ...(description ? { description } : {}), schema: shown })
    }
  }
  return out
}

/**
 * The answers the HTTP layer (daemon/http/build-http-app.ts) gives on every route, whatever the endpoint: listed on
 * each operation where they can occur (issue 24), so a generated client knows their shape.
 */
function frameworkResponses(endpoint: Endpoint): Record<number, EndpointResponse> {
  const error = (description: string, headers?: string[]): EndpointResponse => ({ description, schema: S.ErrorBody, ...(headers ? { headers } : {}) })
  const out: Record<number, EndpointResponse> = {
    405: error('A method this path does not serve (the Allow header lists the ones it does): Method not allowed.', ['Allow']),
  }
  if (endpoint.body) {
    out[413] = error('The body is larger than the body limit (64 KiB by default): Payload too large.')
    out[415] = error('The body is not JSON (Content-Type must be application/json): Unsupported media type.')
  }
  const storage = 'The service could not write to its disk (code storage_unavailable; full or read-only): nothing was changed; retry after Retry-After.'
  if (endpoint.method !== 'GET') {
    const existing = endpoint.responses[503]
    out[503] = existing
      ? { ...existing, description: `${existing.description} Or: ${storage}`, headers: [...new Set([...(existing.headers ?? []), 'Retry-After'])] }
      : error(storage, ['Retry-After'])
  }
  return out
}

export function buildOpenApiDocument(): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {}
  const schemas = buildComponents()
  const mediaType = (schema: z.ZodType, example: unknown): JsonObject => ({ 'application/json': { schema: refTo(schema), example } })
  const componentOf = (schema: z.ZodType): JsonObject => schemas[(refTo(schema).$ref as string).replace('#/components/schemas/', '')] as JsonObject
  for (const endpoint of ENDPOINTS) {
    const responses = { ...endpoint.responses, ...frameworkResponses(endpoint) }
    const operation: JsonObject = {
      summary: endpoint.summary,
      description: endpoint.description,
      operationId: `${endpoint.method.toLowerCase()}${endpoint.path.replace(/[{}]/g, '').replace(/[/-](\w)/g, (_m, c: string) => c.toUpperCase())}`,
      security: endpoint.auth ? [{ bearerAuth: [] }] : [],
      responses: Object.fromEntries(
        Object.entries(responses).map(([status, response]) => [
          status,
          {
            description: response.description,
            ...(response.headers ? { headers: Object.fromEntries(response.headers.map((h) => [h, { $ref: `#/components/headers/${h}` }])) } : {}),
            ...(response.schema
              ? {
                  content: mediaType(
                    response.schema,
                    response.schema === S.ErrorBody ? errorExample(Number(status), response.description) : exampleOf(componentOf(response.schema), schemas),
                  ),
                }
              : {}),
          },
        ]),
      ),
    }
    const params = parameters(endpoint)
    if (params.length > 0) operation.parameters = params
    if (endpoint.body) operation.requestBody = { required: true, content: mediaType(endpoint.body, exampleOf(componentOf(endpoint.body), schemas)) }
    paths[endpoint.path] = { ...paths[endpoint.path], [endpoint.method.toLowerCase()]: operation }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'prebuy public API', version: API_VERSION, description: DESCRIPTION },
    servers: [{ url: API_PREFIX }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer prebuy_...' },
      },
      headers: {
        'X-RateLimit-Limit': { description: 'Requests allowed per window.', schema: { type: 'integer' } },
        'X-RateLimit-Remaining': { description: 'Requests left in the current window.', schema: { type: 'integer' } },
        'X-RateLimit-Reset': { description: 'End of the current window, epoch milliseconds.', schema: { type: 'integer' } },
        'Retry-After': { description: 'Seconds until the window resets (or the desk reopens).', schema: { type: 'integer' } },
        Allow: { description: 'The methods the path serves, comma-separated.', schema: { type: 'string' } },
      },
    },
  }
}
