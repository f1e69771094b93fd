import { readFile } from 'node:fs/promises'
import createClient from 'openapi-fetch'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GENERATED_TYPES, generateTypes } from '../../scripts/generate-api-client.ts'
import { approvedProject, createHarness, type Harness, markLaunched, PREFIX } from './harness.ts'
import type { paths } from './typed-client/prebuy-api.generated.ts'

/**
 * A client generated from the served OpenAPI document runs the README's flow over real HTTP (issue 24: "a test in
 * `npm test` generates a typed client from the served OpenAPI document and runs the README's flow through it, so the
 * document cannot drift from the server again").
 *
 * Two halves hold it together:
 * - the types openapi-typescript generates from the document this server serves must equal the checked-in
 *   `prebuy-api.generated.ts` (regenerate with `npm run api:client`);
 * - this file is type-checked against those types by `npm run typecheck` (part of `npm test`), and its calls are sent
 *   with openapi-fetch to a listening server: a request the document describes wrongly either fails to type-check
 *   (the `@ts-expect-error` lines fail when the document turns looser than the server) or is refused at run time.
 */
let h: Harness
let baseUrl: string

beforeAll(async () => {
  h = await createHarness()
  await h.app.listen({ host: '127.0.0.1', port: 0 })
  const address = h.app.server.address()
  if (address === null || typeof address === 'string') throw new Error('the app did not listen on a TCP port')
  baseUrl = `http://127.0.0.1:${address.port}${PREFIX}`
})

afterAll(async () => {
  await h.destroy()
})

describe('a client generated with openapi-typescript from the served document', () => {
  it('the checked-in types are what the served document generates', async () => {
    const served = await (await fetch(`${baseUrl}/openapi.json`)).json()
    const checkedIn = await readFile(GENERATED_TYPES, 'utf8')
    expect(await generateTypes(served), `the API changed: run \`npm run api:client\` and commit ${GENERATED_TYPES}`).toBe(checkedIn)
  })

  it("runs the README's flow through openapi-fetch, each answer typed by the document", async () => {
    const open = createClient<paths>({ baseUrl })
    const created = await open.POST('/api-keys', { body: { label: 'readme' } })
    expect(created.response.status).toBe(201)
    const apiKey = created.data!.apiKey
    const api = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${apiKey}` } })

    const me = await api.GET('/me')
    expect(me.data?.label).toBe('readme')

    const registered = await open.POST('/projects', {
      body: { projectName: 'Moon', projectUrls: ['https://moon.example'], projectInfo: 'Our token.', contact: '@moon', email: 'team@moon.example' },
    })
    expect(registered.response.status).toBe(200)
    const owner = await approvedProject(h, 'alpha')
    const ownerApi = createClient<paths>({ baseUrl, headers: { authorization: `Bearer ${owner.apiKey}` } })

    const listed = await api.GET('/projects', { params: { query: { limit: 1 } } })
    expect(listed.data?.data.map((p) => p.identity.slug)).toEqual(['alpha'])
    const project = await api.GET('/projects/{slug}', { params: { path: { slug: 'alpha' } } })
    expect(project.data?.identity.slug).toBe('alpha')

    const order = { slug: 'alpha', maxSpendUsdc: '250.5', maxFdvUsdc: '5000000', expiresInMs: 86_400_000 }
    const placed = await api.POST('/orders', { body: { items: [order, { ...order, slug: 'nope' }] } })
    expect(placed.data?.results.map((r) => r.ok)).toEqual([true, false])

    const patched = await api.PATCH('/orders', { body: { items: [{ slug: 'alpha', maxSpendUsdc: '300' }] } })
    expect(patched.response.status).toBe(200)
    const page = await api.GET('/orders', { params: { query: { limit: 10 } } })
    expect(page.data?.meta.total).toBe(1)
    expect(page.data?.data[0]?.maxSpendUsdc).toBe('300')

    const buyers = await ownerApi.GET('/projects/{slug}/buyers', { params: { path: { slug: 'alpha' } } })
    expect(buyers.response.status).toBe(200)

    const wallet = await api.GET('/wallet')
    expect(wallet.response.status).toBe(200)
    const withdrawal = await api.POST('/wallet/withdrawals', {
      body: { tokenAddress: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', withdrawAddress: '0x000000000000000000000000000000000000dEaD', amount: '1' },
    })
    expect(withdrawal.response.status).toBe(200)

    await markLaunched(h, 'alpha', {
      chain: 'base',
      tokenAddress: '0x00000000000000000000000000000000000000a7',
      symbol: 'A',
      name: 'A',
      decimals: 18,
      launchedAt: 1,
    })
    const launched = await ownerApi.GET('/projects/{slug}', { params: { path: { slug: 'alpha' } } })
    expect(launched.response.status).toBe(200)

    const deleted = await api.DELETE('/orders', { body: { items: [{ slug: 'alpha' }] } })
    expect(deleted.response.status).toBe(200)
    const gone = await api.GET('/orders', { params: { query: { status: 'deleted' } } })
    expect(gone.data?.meta.total).toBe(1)

    // A refusal arrives as the document's error shape, typed too.
    const missing = await api.GET('/projects/{slug}', { params: { path: { slug: 'none' } } })
    expect(missing.response.status).toBe(404)
    expect(missing.error?.error).toBe('Not found')
    expect(missing.error?.code).toBe('project_not_found')
  })

  it('refuses at type-check time what the server refuses at run time', async () => {
    const api = createClient<paths>({
      baseUrl,
      headers: { authorization: `Bearer ${(await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'strict' } })).json().apiKey}` },
    })
    // @ts-expect-error a PATCH item must change something: the document requires more than the slug, as the server does
    const onlySlug = await api.PATCH('/orders', { body: { items: [{ slug: 'alpha' }] } })
    expect(onlySlug.response.status).toBe(400)
    // @ts-expect-error expiresInMs is an integer in the document; a string is refused before it is sent
    const wrongType = await api.POST('/orders', { body: { items: [{ slug: 'alpha', maxSpendUsdc: '1', maxFdvUsdc: null, expiresInMs: 'soon' }] } })
    expect(wrongType.response.status).toBe(400)
  })
})
