import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { NATIVE_ETH_ADDRESS, CHAIN_KEYS, type ChainKey } from '../../../src/chain/chain-keys.ts'
import { isPrebuyError, PrebuyError } from '../../../src/common/errors.ts'
import * as S from '../../../src/api/schemas.ts'
import type { BalanceEntry } from '../../../src/wallets/wallet-service.ts'
import { otcOfferView } from '../../../src/launch-methods/pooled-otc/domain/otc-view.ts'
import { pendingChangeView } from '../../../src/domain/owner-change-view.ts'
import { devBuyLaunchView } from '../../../src/launch-methods/dev-buy/domain/dev-buy-view.ts'
import type { TokenVesting } from '../../../src/launch-methods/vesting/vesting-service.ts'
import { enforceRateLimit, setRateLimitHeaders } from '../auth.ts'
import { keyOf, type HttpAppDeps } from '../context.ts'
import type { RateLimiter } from '../rate-limit.ts'
import { clampLimit, parseBody, parseQuery } from '../validate.ts'

/** POST /api-keys and the three submission endpoints: no credentials. */
export function registerOpenRoutes(app: FastifyInstance, deps: HttpAppDeps, limiters: { keyCreation: RateLimiter; submissions: RateLimiter }): void {
  const { services } = deps

  app.post('/api-keys', async (request, reply) =>
    withinBudget(limiters.keyCreation, request, reply, async () => {
      if (await services.blocklist.isBlocked({ ip: request.ip })) throw new PrebuyError('blocked', 'Request blocked.')
      const body = parseBody(S.CreateApiKeyBody, request.body)
      const { apiKey, record } = await services.keys.issueKey(body.label)
      return reply.code(201).send({ apiKey, serviceWalletAddress: record.walletAddress, label: record.label })
    }),
  )

  // Counted before the body is read (a flood past the budget costs no parsing and no storage); given back when refused.
  const submit =
    <T>(run: (request: FastifyRequest) => Promise<T>) =>
    async (request: FastifyRequest, reply: FastifyReply) =>
      withinBudget(limiters.submissions, request, reply, () => run(request))
  app.post(
    '/api-key-requests',
    submit((request) => services.reviews.submitKeyRequest(parseBody(S.KeyRequestBody, request.body), request.ip)),
  )
  app.post(
    '/projects',
    submit((request) => services.reviews.submitRegistration(parseBody(S.RegistrationBody, request.body), request.ip)),
  )
  app.post(
    '/feedback',
    submit((request) => services.reviews.submitFeedback(parseBody(S.FeedbackBody, request.body), request.ip)),
  )
}

/** What a refused request gives back: the client's own mistake or a refusal (400, 403, 409) stores nothing. */
const REFUNDED_KINDS = new Set(['bad_request', 'forbidden', 'conflict'])

/**
 * Runs a request within a per-IP budget: counted before anything is read, and given back when the service refuses the
 * request, so only what is stored spends the budget (X-RateLimit-Remaining says so).
 */
async function withinBudget<T>(limiter: RateLimiter, request: FastifyRequest, reply: FastifyReply, run: () => Promise<T>): Promise<T> {
  enforceRateLimit(reply, limiter.hit(request.ip))
  try {
    return await run()
  } catch (error) {
    if (isPrebuyError(error) && REFUNDED_KINDS.has(error.kind)) setRateLimitHeaders(reply, limiter.refund(request.ip))
    throw error
  }
}

const isNative = (entry: BalanceEntry) => entry.address.toLowerCase() === NATIVE_ETH_ADDRESS.toLowerCase()

/** Spec 2.2 rule 4: the spend currency (the first ERC-20 the wallet service lists) comes first. */
function spendCurrencyFirst(entries: readonly BalanceEntry[]) {
  const index = entries.findIndex((entry) => !isNative(entry))
  const ordered = index <= 0 ? [...entries] : [entries[index]!, ...entries.slice(0, index), ...entries.slice(index + 1)]
  return ordered.map(({ address, symbol, name, decimals, balance }) => ({ address, symbol, name, decimals, balance }))
}

/**
 * Each balance entry of a token held in vesting positions carries `vesting` (what is locked, what a withdrawal would
 * release now, until when); a token held only there (nothing free) is listed with balance "0".
 */
function withVesting(entries: ReturnType<typeof spendCurrencyFirst>, vesting: ReadonlyMap<string, TokenVesting>) {
  const view = (v: TokenVesting) => ({ locked: v.locked.toString(), releasable: v.releasable.toString(), lockedUntil: v.lockedUntil })
  const out: Array<ReturnType<typeof spendCurrencyFirst>[number] & { vesting?: ReturnType<typeof view> }> = entries.map((entry) => {
    const v = vesting.get(entry.address.toLowerCase())
    return v ? { ...entry, vesting: view(v) } : entry
  })
  for (const [address, v] of vesting) {
    if (!entries.some((e) => e.address.toLowerCase() === address)) {
      out.push({ address: v.token.address, symbol: v.token.symbol, name: v.token.name, decimals: v.token.decimals, balance: '0', vesting: view(v) })
    }
  }
  return out
}

/** Everything behind the bearer key. */
export function registerKeyRoutes(app: FastifyInstance, deps: HttpAppDeps): void {
  const { services, wallets } = deps

  app.get('/me', async (request) => {
    const key = keyOf(request)
    return { serviceWalletAddress: key.walletAddress, label: key.label, ownedProjectSlugs: await services.projects.ownedSlugs(key.id) }
  })

  app.get('/projects', async (request) => {
    const query = parseQuery(S.PageQuery, request.query)
    return services.projects.listProjects({ cursor: query.cursor, limit: clampLimit(query.limit) })
  })

  app.get<{ Params: { slug: string } }>('/projects/:slug', async (request) => services.projects.projectDetail(request.params.slug, keyOf(request).id))

  // An owner's change of what the orders buy is a proposal the operator confirms (docs/owner-changes.md): 202 until then.
  app.patch<{ Params: { slug: string } }>('/projects/:slug/launch-binding', async (request, reply) => {
    const body = parseBody(S.LaunchBindingBody, request.body)
    const edit = await services.launches.proposeBinding(request.params.slug, keyOf(request).id, {
      ...(body.expectedTokenAddress === undefined ? {} : { expectedTokenAddress: body.expectedTokenAddress }),
      ...(body.expectedSymbol === undefined ? {} : { expectedSymbol: body.expectedSymbol }),
      ...(body.expectedName === undefined ? {} : { expectedName: body.expectedName }),
    })
    const { project } = edit
    reply.code(edit.outcome === 'pending_confirmation' ? 202 : 200)
    return {
      slug: project.slug,
      creatorAddress: project.creatorAddress,
      expectedTokenAddress: project.expectedTokenAddress,
      expectedSymbol: project.expectedSymbol ?? null,
      expectedName: project.expectedName ?? null,
      pendingChange: edit.outcome === 'pending_confirmation' ? pendingChangeView(edit.change) : null,
    }
  })

  app.get<{ Params: { slug: string } }>('/projects/:slug/simulation', async (request) => {
    const query = parseQuery(S.SimulationQuery, request.query)
    const startFdv = query.startFdvUsdc === undefined ? undefined : S.fdvAtomsOf(query.startFdvUsdc)
    return services.simulations.simulate(request.params.slug, { keyId: keyOf(request).id }, startFdv === undefined ? {} : { startFdv })
  })

  app.patch<{ Params: { slug: string } }>('/projects/:slug/otc', async (request, reply) => {
    const body = parseBody(S.OtcOfferBody, request.body)
    const edit = await services.otc.setOffer(request.params.slug, { ownerKeyId: keyOf(request).id }, body)
    if (edit.outcome === 'in_force') return otcOfferView(edit.project.otc!)
    if (edit.change.kind !== 'otc_offer') throw new Error('an OTC edit proposed a change of another kind')
    reply.code(202)
    return { ...otcOfferView(edit.change.offer), pendingChange: pendingChangeView(edit.change) }
  })

  app.delete<{ Params: { slug: string } }>('/projects/:slug/otc', async (request) => {
    return otcOfferView((await services.otc.cancel(request.params.slug, { ownerKeyId: keyOf(request).id })).otc!)
  })

  app.post<{ Params: { slug: string } }>('/projects/:slug/otc/deposit', async (request) => {
    return otcOfferView((await services.otc.deposit(request.params.slug, { ownerKeyId: keyOf(request).id })).otc!)
  })

  app.patch<{ Params: { slug: string } }>('/projects/:slug/dev-buy', async (request) => {
    const body = parseBody(S.DevBuyParamsBody, request.body)
    return devBuyLaunchView((await services.devBuy.setParams(request.params.slug, { ownerKeyId: keyOf(request).id }, body)).devBuy!)
  })

  app.post<{ Params: { slug: string } }>('/projects/:slug/dev-buy/launch', async (request, reply) => {
    const project = await services.devBuy.launch(request.params.slug, { ownerKeyId: keyOf(request).id })
    reply.code(202)
    return devBuyLaunchView(project.devBuy!)
  })

  app.get<{ Params: { slug: string } }>('/projects/:slug/buyers', async (request) => {
    const query = parseQuery(S.PageQuery, request.query)
    return services.buyers.listBuyers(request.params.slug, keyOf(request).id, { cursor: query.cursor, limit: clampLimit(query.limit) })
  })

  app.post('/orders', async (request) => {
    const body = parseBody(S.CreateOrdersBody, request.body)
    return { results: await services.orders.createOrders(keyOf(request).id, body.items) }
  })

  app.get('/orders', async (request) => {
    const query = parseQuery(S.OrdersQuery, request.query)
    const keyId = keyOf(request).id
    return services.vesting.withVesting(
      await services.orders.listOrders(keyId, { status: query.status, cursor: query.cursor, limit: clampLimit(query.limit) }),
      keyId,
    )
  })

  app.patch('/orders', async (request) => {
    const body = parseBody(S.PatchOrdersBody, request.body)
    const items = body.items.map(({ slug, maxSpendUsdc, maxFdvUsdc, expiresInMs }) => ({
      slug,
      ...(maxSpendUsdc === undefined ? {} : { maxSpendUsdc }),
      ...(maxFdvUsdc === undefined ? {} : { maxFdvUsdc }),
      ...(expiresInMs === undefined ? {} : { expiresInMs }),
    }))
    return { results: await services.orders.patchOrders(keyOf(request).id, items) }
  })

  app.delete('/orders', async (request) => {
    const body = parseBody(S.DeleteOrdersBody, request.body)
    return { results: await services.orders.deleteOrders(keyOf(request).id, body.items) }
  })

  app.get('/wallet', async (request) => {
    const key = keyOf(request)
    const vesting = await services.vesting.walletVesting(key.id)
    const indexed = await services.projects.indexedTokens()
    // Tokens held in vesting positions are listed too (an OTC token before its launch is not indexed otherwise).
    for (const chain of CHAIN_KEYS) {
      const known = new Set(indexed[chain].map((t) => t.address.toLowerCase()))
      for (const [address, entry] of vesting[chain]) if (!known.has(address)) indexed[chain].push(entry.token)
    }
    const balances = await wallets.getBalances(key.userIndex, indexed)
    const out: Partial<Record<ChainKey, ReturnType<typeof withVesting>>> = {}
    // The chains the wallet service reads: a chain disabled in the config is absent (it is not a supported chain).
    for (const chain of CHAIN_KEYS) {
      const held = balances[chain]
      if (held !== undefined) out[chain] = withVesting(spendCurrencyFirst(held), vesting[chain])
    }
    return { serviceWalletAddress: key.walletAddress, balances: out }
  })

  app.post('/wallet/withdrawals', async (request) => {
    const key = keyOf(request)
    const body = parseBody(S.WithdrawalBody, request.body)
    const chain = body.chain ?? 'base'
    const result = await wallets.withdraw({
      userIndex: key.userIndex,
      chain,
      tokenAddress: body.tokenAddress,
      to: body.withdrawAddress,
      amount: body.amount,
      vested: await services.vesting.vestedFor(key.id, chain, body.tokenAddress),
    })
    return { txHash: result.txHash, chain: result.chain, tokenAddress: result.tokenAddress, withdrawAddress: result.to, amount: result.amount }
  })
}
