import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { bearer, createHarness, createKey, type Harness, PREFIX } from './harness.ts'

/**
 * Issue 24: one text rule and one URL rule for every public field (src/common/public-text.ts, httpUrlSchema). Each
 * endpoint family that takes public text refuses a control, bidi or zero-width character, and every URL field a
 * javascript:, data: or ftp: URL, with 400 in the spec's error shape and nothing stored; projectUrls takes social handles.
 */
let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.destroy()
})

const post = (url: string, payload: object, ip = '192.0.2.7') => h.app.inject({ method: 'POST', url: `${PREFIX}${url}`, payload, remoteAddress: ip })

/** Values the text rule refuses: a terminal escape, a bidi override and isolate, zero-width characters, C1, DEL. */
const BAD_TEXT = ['Moon\u001b[2J', 'Moon\u202egpj.exe', 'Mo\u2066on', 'Mo\u200bon', 'Mo\u200don', 'Moon\ufeff!', 'Mo\u0085on', 'Mo\u007fon', 'Mo\u200eon']
const BAD_URLS = [
  'javascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'ftp://moon.example',
  'https://moon.example/\u202egpj.exe',
  'https://moon.example/a b',
]

const registration = { projectName: 'Moon', projectUrls: ['https://moon.example'], projectInfo: 'A token.', contact: '@moon', email: 'team@moon.example' }
const keyRequest = { useCases: ['launching_a_token'], projectName: 'Moon', projectUrls: ['https://moon.example'], projectInfo: 'Launches.', contact: '@moon' }
const feedback = { message: 'Nice', name: 'Moon', contact: '@moon' }

function expectBadRequest(res: { statusCode: number; json: () => unknown }, what: string) {
  expect(res.statusCode, what).toBe(400)
  expect(res.json(), what).toMatchObject({ error: 'Bad request', message: 'Invalid request body' })
}

describe('public text on the submission endpoints', () => {
  it('registrations, key requests and feedback refuse control, bidi and zero-width characters in every text field; nothing is stored', async () => {
    const fields: Array<[string, object, string[]]> = [
      ['/projects', registration, ['projectName', 'projectInfo', 'contact', 'businessSignOff']],
      ['/api-key-requests', keyRequest, ['projectName', 'projectInfo', 'contact', 'businessSignOff']],
      ['/feedback', feedback, ['message', 'name', 'contact']],
    ]
    for (const [path, body, names] of fields) {
      for (const name of names) {
        for (const bad of BAD_TEXT) expectBadRequest(await post(path, { ...body, [name]: bad }), `${path} ${name} ${JSON.stringify(bad)}`)
      }
    }
    for (const kind of ['registration', 'key_request', 'feedback'] as const) expect(await h.services.reviews.list({ kind })).toEqual([])
  })

  it('multi-line fields keep newlines; values are trimmed', async () => {
    expect((await post('/projects', { ...registration, projectName: '  Moon  ', projectInfo: 'One.\n\nTwo.' })).statusCode).toBe(200)
    const [item] = await h.services.reviews.list({ kind: 'registration' })
    expect(item?.submission).toMatchObject({ projectName: 'Moon', projectInfo: 'One.\n\nTwo.' })
  })

  it('projectUrls: javascript:, data:, ftp: and URLs with hidden characters are refused; http(s) URLs and @handles are accepted', async () => {
    for (const [path, body] of [
      ['/projects', registration],
      ['/api-key-requests', keyRequest],
    ] as const) {
      for (const bad of [...BAD_URLS, '@', '@mo on', `@${'m'.repeat(65)}`, '@moo\u200bn']) {
        expectBadRequest(await post(path, { ...body, projectUrls: ['https://ok.example', bad] }), `${path} ${JSON.stringify(bad)}`)
      }
      expect((await post(path, { ...body, projectUrls: ['@moon', 'https://moon.example', '@moon_coin.eth-1'] })).statusCode, path).toBe(200)
    }
    const [item] = await h.services.reviews.list({ kind: 'registration' })
    expect(item?.submission).toMatchObject({ projectUrls: ['@moon', 'https://moon.example', '@moon_coin.eth-1'] })
  })

  it('a registration listing a handle first: the first URL becomes the website, never the handle', async () => {
    expect((await post('/projects', { ...registration, projectUrls: ['@moon', 'https://moon.example'] })).statusCode).toBe(200)
    const [pending] = await h.services.reviews.list({ kind: 'registration' })
    await h.services.reviews.approveRegistration(pending!.id, {
      slug: 'moon',
      creatorAddress: '0x00000000000000000000000000000000000000c1',
      launchpad: 'clanker',
      chain: 'base',
      label: 'owner-moon',
    })
    const { apiKey } = await createKey(h, 'reader')
    const res = await h.app.inject({ method: 'GET', url: `${PREFIX}/projects/moon`, headers: bearer(apiKey) })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json().content.websiteUrl).toBe('https://moon.example')
  })
})

describe('public text on keys and owner edits', () => {
  it('POST /api-keys refuses a label with control, bidi or zero-width characters (400, spec shape)', async () => {
    for (const bad of [...BAD_TEXT, 'a\nb', 'a\tb']) expectBadRequest(await post('/api-keys', { label: bad }), JSON.stringify(bad))
    expect(await h.services.keys.listKeys()).toEqual([])
    const res = await post('/api-keys', { label: '  月 moon  ' })
    expect(res.statusCode).toBe(201)
    expect(res.json().label).toBe('月 moon')
  })

  it('PATCH /projects/{slug}/dev-buy refuses bidi/zero-width/control names and symbols, non-http(s) images, HTML metadata', async () => {
    const { apiKey } = await createKey(h, 'owner')
    const ok = { name: 'Moon', symbol: 'MOON', image: 'https://moon.example/m.png', metadata: '{"description":"The moon."}' }
    const bad: object[] = [
      ...BAD_TEXT.map((name) => ({ name })),
      { symbol: 'MO\u200bON' },
      { symbol: 'MOON\u202e' },
      { symbol: 'MO ON' },
      { symbol: 'МООN' },
      ...BAD_URLS.map((image) => ({ image })),
      { image: 'data:image/png;base64,iVBORw0KGgo=' },
      { metadata: '<img src=x onerror=alert(1)>' },
      { metadata: 'a\u202eb' },
      { metadata: 'a\u0000b' },
    ]
    for (const fields of bad) {
      const res = await h.app.inject({ method: 'PATCH', url: `${PREFIX}/projects/moon/dev-buy`, headers: bearer(apiKey), payload: { ...ok, ...fields } })
      expectBadRequest(res, JSON.stringify(fields))
    }
  })
})
