import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { ADMIN_ROUTES, ADMIN_STREAMS, type AdminRouteName, adminPath } from '../../../src/admin-api/admin-routes.ts'
import { AdminApiError, createAdminClient } from '../../../src/admin-client/admin-client.ts'
import type { AdminOperations } from '../../../daemon/admin/admin-operations.ts'
import { buildAdminApp } from '../../../daemon/admin/build-admin-app.ts'
import type { ContractsOperations } from '../../../daemon/admin/contracts-routes.ts'
import type { DevnetOperations } from '../../../devnet/admin/devnet-operations.ts'
import { devnetRoutes } from '../../../devnet/admin/devnet-routes.ts'
import { silentLogger } from '../../../src/common/logger.ts'

// The route table is the admin API: the daemon serves every row, the client reaches every row, and no other file
// writes an admin URL.
const TOKEN = 'prebuy_op_table-test'
const ROOT = join(import.meta.dirname, '..', '..', '..')
/** Each operation answers its own name, so a route reaching the wrong operation is seen. */
const answering = <T extends object>() => new Proxy({} as T, { get: (_target, name) => () => Promise.resolve({ served: String(name) }) })
const devnet = answering<DevnetOperations>()
const contracts: ContractsOperations = { deploy: () => Promise.resolve({ served: 'deployContracts' }) as never }
const app = buildAdminApp({
  operations: answering<AdminOperations>(),
  devnetRoutes: (instance) => devnetRoutes(instance, devnet),
  contracts,
  operatorToken: TOKEN,
  logger: silentLogger,
})
afterAll(() => app.close())

/** What the devnet operation of a devnet row is called (DevnetOperations names them without the prefix). */
const devnetOperation: Partial<Record<AdminRouteName, string>> = {
  devnetFund: 'fund',
  devnetMine: 'mine',
  devnetDeployments: 'deployments',
  devnetLaunch: 'launch',
  devnetSwap: 'swap',
}

describe('the admin route table', () => {
  const names = Object.keys(ADMIN_ROUTES) as AdminRouteName[]

  it('is served: every row (and each stream) is a route of the admin app', async () => {
    await app.ready()
    const unserved = names.filter((name) => !app.hasRoute({ method: ADMIN_ROUTES[name].method, url: ADMIN_ROUTES[name].path }))
    expect(unserved).toEqual([])
    expect(app.hasRoute({ method: 'GET', url: ADMIN_STREAMS.backup.path })).toBe(true)
  })

  it('has distinct rows and each command prints the answer of one row only', () => {
    const keys = names.map((name) => `${ADMIN_ROUTES[name].method} ${ADMIN_ROUTES[name].path}`)
    expect(new Set(keys).size).toBe(keys.length)
    const commands = names.flatMap((name) => ADMIN_ROUTES[name].commands)
    expect(new Set(commands).size).toBe(commands.length)
  })

  it('is what the client calls: each row reaches its own operation through the client, or fails its own validation', async () => {
    const fetchFromApp = (async (input: URL, init: RequestInit) => {
      const response = await app.inject({
        method: init.method as 'GET',
        url: `${input.pathname}${input.search}`,
        headers: init.headers as Record<string, string>,
        ...(init.body === undefined ? {} : { payload: init.body as string }),
      })
      return new Response(response.body, { status: response.statusCode })
    }) as typeof fetch
    const client = createAdminClient({ adminUrl: 'http://127.0.0.1:1', operatorToken: TOKEN, fetch: fetchFromApp })
    for (const name of names) {
      const route = ADMIN_ROUTES[name]
      const input = {
        ...(route.path.includes(':id') ? { id: 'a b/c' } : {}),
        ...('query' in route ? { query: {} } : {}),
        ...('body' in route ? { body: {} } : {}),
      }
      const answer = await (client.call as (n: string, i: unknown) => Promise<unknown>)(name, input).catch((error: unknown) => error)
      if (answer instanceof AdminApiError) expect({ name, code: answer.code, status: answer.status }).toEqual({ name, code: 'invalid_request', status: 400 })
      else expect({ name, answer }).toEqual({ name, answer: { served: devnetOperation[name] ?? (name === 'deployContracts' ? 'deployContracts' : name) } })
    }
  })

  it('fills the id encoded and appends only the given query fields', () => {
    expect(adminPath(ADMIN_ROUTES.getOtc, { id: 'a b/c' })).toBe('/admin/v1/projects/a%20b%2Fc/otc')
    expect(adminPath(ADMIN_ROUTES.listReviews, { query: { kind: 'registration', status: undefined } })).toBe('/admin/v1/reviews?kind=registration')
    expect(() => adminPath(ADMIN_ROUTES.getOtc, {})).toThrow(/needs an id/)
  })

  it('is the only place an admin URL is written (comments aside)', () => {
    const files = ['src', 'daemon', 'commands', 'devnet', 'bin'].flatMap((dir) => sourceFiles(join(ROOT, dir)))
    const writers = files.filter((file) => /['"`]\/admin\/v1/.test(withoutComments(readFileSync(file, 'utf8'))))
    expect(writers.map((file) => relative(ROOT, file))).toEqual(['src/admin-api/admin-routes.ts'])
  })
})

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'artifacts' ? [] : sourceFiles(path)
    return /\.(ts|tsx)$/.test(name) ? [path] : []
  })
}

function withoutComments(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '')
}
