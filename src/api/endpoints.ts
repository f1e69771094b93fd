import type { z } from 'zod'
import * as S from './schemas.ts'

/**
 * The catalogue of public endpoints: what the OpenAPI document says about each one. Routes import the same schemas,
 * so the document and the validation share one definition.
 */
export interface EndpointResponse {
  description: string
  schema?: z.ZodType
  headers?: string[]
}

export interface Endpoint {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE'
  /** OpenAPI style, relative to /api/public/v1. */
  path: string
  auth: boolean
  summary: string
  description: string
  body?: z.ZodType
  query?: z.ZodObject
  pathParams?: Record<string, string>
  responses: Record<number, EndpointResponse>
}

const RATE_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']
const err = (description: string, headers?: string[]): EndpointResponse => ({ description, schema: S.ErrorBody, ...(headers ? { headers } : {}) })

const authErrors: Record<number, EndpointResponse> = {
  401: err('Missing, malformed, unknown or revoked key.'),
  429: err(
    'More than the per-key limit (100 per minute) in the current window. Body: Too many requests / Rate limit exceeded. Retry after the window resets.',
    ['Retry-After', ...RATE_HEADERS],
  ),
  500: err('Unexpected failure; the body carries no internals.'),
}
const invalid = err('Body or query does not fit the schema: Bad request / Invalid request body (details lists the problems).')
const submissionErrors: Record<number, EndpointResponse> = {
  400: invalid,
  403: err('The requester IP, email or contact is on the operator blocklist: Forbidden / Request blocked.'),
  429: err(
    'More submissions from this client IP in the current hour than the budget the three submission endpoints share (default 20, configurable): Too many requests, with Retry-After. Refused requests (400, 403) do not spend it.',
    ['Retry-After', ...RATE_HEADERS],
  ),
  503: err('The operators closed the submission desk: Service unavailable, with Retry-After (seconds).', ['Retry-After']),
  500: err('Unexpected failure.'),
}
const ok = (description: string, schema: z.ZodType): EndpointResponse => ({ description, schema, headers: RATE_HEADERS })
const slugParam = { slug: 'Project slug.' }

export const ENDPOINTS: Endpoint[] = [
  {
    method: 'POST',
    path: '/api-keys',
    auth: false,
    summary: 'Create a key with its user and wallet',
    description:
      'Creates an API key, its user and its smart wallet (counterfactual; the same address on both chains). The plaintext key is returned once. Rate limited per client IP (default 10 per hour, configurable); a requester IP on the blocklist gets 403.',
    body: S.CreateApiKeyBody,
    responses: {
      201: { description: 'Key created.', schema: S.CreatedApiKey },
      400: invalid,
      403: err('Requester IP blocked.'),
      409: err('The label is taken (code label_taken); retry with another label.'),
      429: err('Too many keys created from this IP in the current hour (refused requests, 400/403/409, do not count).', ['Retry-After', ...RATE_HEADERS]),
      500: err('Unexpected failure.'),
      503: err(
        'The wallet address was not confirmed against the chain, and nothing was stored: a chain’s wallet factory derives another address (code wallet_address_mismatch), or the chain could not be read (code chain_unavailable).',
      ),
    },
  },
  {
    method: 'POST',
    path: '/api-key-requests',
    auth: false,
    summary: 'Request a key for review',
    description: 'Queues a key request for manual review (status pending). The key is delivered through the contact if approved.',
    body: S.KeyRequestBody,
    responses: { 200: { description: 'Received.', schema: S.ReceiptSchema }, ...submissionErrors },
  },
  {
    method: 'GET',
    path: '/me',
    auth: true,
    summary: 'Identity behind the key',
    description: 'The wallet, label and owned projects of the calling key.',
    responses: { 200: ok('Identity.', S.Me), ...authErrors },
  },
  {
    method: 'GET',
    path: '/projects',
    auth: true,
    summary: 'Approved project profiles',
    description: 'Cursor-paginated approved projects in slug order.',
    query: S.PageQuery,
    responses: { 200: ok('A page of profiles.', S.ProjectPageSchema), 400: invalid, ...authErrors },
  },
  {
    method: 'GET',
    path: '/projects/{slug}',
    auth: true,
    summary: 'One project with current stats',
    description: 'Profile, launch facts and stats; the owning key also gets ownerStats. Unknown slug: 404.',
    pathParams: slugParam,
    responses: { 200: ok('The project.', S.ProjectDetailSchema), 404: err('No project has this slug.'), ...authErrors },
  },
  {
    method: 'PATCH',
    path: '/projects/{slug}/launch-binding',
    auth: true,
    summary: "Propose the project's expected token address (owner only; the operator confirms)",
    description:
      "The owning key proposes (or, with null, proposes to clear) the address its token will have at launch. Once in force, only a launch of that exact token binds the project, whoever sends it: a look-alike token, or a launch naming the project's deployer in a field anyone can set, is rejected and buys nothing. The proposal changes nothing by itself (202): it takes effect only once the operator confirms it, and, if orders placed before the proposal are live, only after a notice period counted from the confirmation (ownerChanges.noticeHours, 48 h by default; docs/owner-changes.md). Until then the binding in force stays, the pending change and its times are on GET /projects/{slug} (changes) for every buyer, and a launch of the proposed token buys nothing (it is recorded with the reason; once the change takes effect, it binds). Proposing the binding in force withdraws a pending proposal (200). Refused once the project has launched (409) and for any key but the owner's (403).",
    pathParams: slugParam,
    body: S.LaunchBindingBody,
    responses: {
      200: ok('The binding in force (the request asked for it; nothing to confirm).', S.LaunchBindingSchema),
      202: ok('The proposal is recorded (pendingChange); the binding in force is unchanged.', S.LaunchBindingSchema),
      400: invalid,
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err('The project has launched; its binding no longer changes (code binding_fixed).'),
      ...authErrors,
    },
  },
  {
    method: 'GET',
    path: '/projects/{slug}/simulation',
    auth: true,
    summary: "Simulate the project's launch (owner only)",
    description:
      "What the launch would do with the live order book and the buyers' wallet balances now: open-market demand by price limit (each slice buys once the effective market cap is at or below its limit) and placed on the launch fee curve of the project's launchpad (the spot FDV each slice needs in the first allowed block and once the fee has decayed, and from the starting FDV the block it becomes eligible in); for a pooled_otc project with an offer, the settlement it would make (fill ratio, each order's spend and tokens); for a dev_buy project with its parameters set, the single buy its launch would make (size, price, resulting market cap, each order's allocation, who is left out and why).",
    pathParams: slugParam,
    query: S.SimulationQuery,
    responses: {
      200: ok('The simulation.', S.LaunchSimulationSchema),
      400: err('startFdvUsdc is not a positive decimal USD amount within the bounds (code invalid_query).'),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err(
        'The dev-buy launch would revert on chain now: the launchpad refuses its deployment or the stablecoin’s quote reverts (code dev_buy_would_revert, details.stage and details.revert).',
      ),
      ...authErrors,
    },
  },
  {
    method: 'PATCH',
    path: '/projects/{slug}/otc',
    auth: true,
    summary: 'Set the pooled OTC offer (owner only)',
    description:
      "For a project whose launch method is pooled_otc: the owning key sets (or, until the tokens are deposited, replaces) the offer: a fixed token amount at a fixed FDV, settled at or after settleAt. At settlement, orders whose limit is at or above the OTC FDV contribute min(spend cap, wallet balance), scaled down pro rata when demand exceeds the offer; one transaction pays the project and delivers the tokens less the 3% fee; unsold tokens return to the project (docs/launch-methods.md). Optional lock terms (lockSeconds, vestingSeconds) hold each buyer's tokens in a vesting position in its wallet's name: nothing before settlement block time + lockSeconds, then linear over vestingSeconds; they are fixed on chain with the rest at the deposit. The owner's offer (the first one too) is a proposal (202): it takes effect only once the operator confirms it, and, if orders placed before the proposal are live, only after a notice period counted from the confirmation (ownerChanges.noticeHours, 48 h by default; docs/owner-changes.md). Until then the offer in force stays, nothing can be deposited (change_pending), and the pending change and its times are on GET /projects/{slug} (changes) for every buyer. Proposing the offer in force withdraws a pending proposal (200).",
    pathParams: slugParam,
    body: S.OtcOfferBody,
    responses: {
      200: ok('The offer in force (the request asked for it; nothing to confirm).', S.OtcOfferEdit),
      202: ok('The proposal is recorded: the proposed offer with its pendingChange; the offer in force is unchanged.', S.OtcOfferEdit),
      400: err(
        'Invalid FDV, token, amount, time or lock terms (codes invalid_otc_fdv, invalid_otc_token, invalid_otc_amount, invalid_settle_at, invalid_address, invalid_lock_seconds, invalid_vesting_seconds), or an invalid body.',
      ),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err('The project is not pooled_otc (not_otc_project), or its tokens are deposited (otc_deposited).'),
      503: err('This service has no OTC settlement contract (or, for a locked offer, no vesting contract) on the project’s chain (otc_unavailable).'),
      ...authErrors,
    },
  },
  {
    method: 'DELETE',
    path: '/projects/{slug}/otc',
    auth: true,
    summary: 'Withdraw the pooled OTC offer (owner only)',
    description:
      "Before the settlement: a deposited offer is cancelled on chain by the owning key's wallet and the tokens return to it; an offer not deposited yet is dropped. The project may then set a new offer (it gets a new offerId). Orders are not touched. Idempotent.",
    pathParams: slugParam,
    responses: {
      200: ok('The offer, cancelled (settlement.status cancelled).', S.OtcOfferSchema),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err(
        'No offer (otc_no_offer), settling right now (otc_settling), already settled (otc_settled), or the cancellation failed (otc_cancel_failed; the offer stands).',
      ),
      503: err('This service has no OTC settlement contract on the project’s chain (otc_unavailable).'),
      ...authErrors,
    },
  },
  {
    method: 'POST',
    path: '/projects/{slug}/otc/deposit',
    auth: true,
    summary: 'Deposit the offered tokens (owner only)',
    description:
      "The owning key's smart wallet deposits the offered tokens into the settlement contract, in one wallet operation (approve and deposit); transfer the tokens to that wallet (GET /wallet shows its address) first. The stablecoin of the settlement is paid to the same wallet. The contract stores the offer under offerKey(that wallet, offerId), so a deposit anyone else makes under the same public offerId is never this offer's; the deposit counts only when the on-chain offer equals these terms in every field (an offer there with other terms is taken back and the offer moves to a fresh offerId, listed in supersededOffers). Idempotent: an offer already deposited is returned as it is.",
    pathParams: slugParam,
    responses: {
      200: ok('The offer, deposited.', S.OtcOfferSchema),
      400: err("The owner's wallet does not hold the offered tokens (insufficient_token_balance)."),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err(
        'Not a pooled_otc project (not_otc_project), no offer in force (otc_no_offer), a change of the offer waiting for the operator or its notice period (change_pending), the deposit operation failed (otc_deposit_failed; nothing was deposited), or the terms were replaced while the deposit was sent (otc_terms_changed: that deposit does not count; deposit again).',
      ),
      503: err('This service has no OTC settlement contract on the project’s chain (otc_unavailable).'),
      ...authErrors,
    },
  },
  {
    method: 'PATCH',
    path: '/projects/{slug}/dev-buy',
    auth: true,
    summary: 'Set the dev-buy launch parameters (owner only)',
    description:
      "For a project whose launch method is dev_buy: the owning key sets (or, until it asks to launch and again once an attempt could not proceed, replaces: a change withdraws a retrying launch's request) the token's identity: name, symbol, image, metadata and admin. The pool, its positions and fees are the launchpad's defaults (docs/launch-methods.md). The launch deploys the token and, in the same transaction, makes one buy for every order that can take part (highest limits first, while the buy's marginal effective market cap stays within each one's limit), split pro rata less the 3% fee.",
    pathParams: slugParam,
    body: S.DevBuyParamsBody,
    responses: {
      200: ok('The launch now in force.', S.DevBuyLaunchSchema),
      400: err('A parameter is missing, too long or has control characters (invalid_dev_buy_params), an invalid address, or an invalid body.'),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err('The project is not dev_buy (not_dev_buy_project), its launch is under way (dev_buy_requested) or done (dev_buy_launched).'),
      503: err('This service has no dev-buy launch for the project’s launchpad on its chain (dev_buy_unavailable).'),
      ...authErrors,
    },
  },
  {
    method: 'POST',
    path: '/projects/{slug}/dev-buy/launch',
    auth: true,
    summary: 'Launch the token with the dev buy (owner only)',
    description:
      "Asks the daemon to launch now: its dev-buy worker (within seconds) moves the project's active orders to executing, plans the buy from the wallets' balances at that moment, and sends one transaction in which the contributing wallets pay in, the stablecoin is swapped to ETH, the token is deployed with the dev buy and the tokens are split; everything or nothing. Follow devBuy.state on GET /projects/{slug}. Orders left out stay active and buy on the open market under their limits. Idempotent: asking again while it launches, or after, changes nothing; after not_launched (no order could take part) it asks again.",
    pathParams: slugParam,
    responses: {
      202: ok('The launch, asked for (requestedAt set).', S.DevBuyLaunchSchema),
      403: err('The key does not own the project (code not_project_owner).'),
      404: err('No project has this slug.'),
      409: err('Not a dev_buy project (not_dev_buy_project), no parameters set (dev_buy_no_params), or the project has launched (dev_buy_launched).'),
      503: err('This service has no dev-buy launch for the project’s launchpad on its chain (dev_buy_unavailable).'),
      ...authErrors,
    },
  },
  {
    method: 'GET',
    path: '/projects/{slug}/buyers',
    auth: true,
    summary: 'Buyers of a project',
    description: 'Cursor-paginated, follower count descending. The owning key also sees maxSpendUsdc and maxFdvUsdc.',
    pathParams: slugParam,
    query: S.PageQuery,
    responses: { 200: ok('A page of buyers.', S.BuyerPageSchema), 400: invalid, 404: err('No project has this slug.'), ...authErrors },
  },
  {
    method: 'POST',
    path: '/projects',
    auth: false,
    summary: 'Submit a project for registration',
    description: 'Stored as a pending registration; on approval the operators create the project and the submitter receives an API key.',
    body: S.RegistrationBody,
    responses: { 200: { description: 'Received.', schema: S.ReceiptSchema }, ...submissionErrors },
  },
  {
    method: 'POST',
    path: '/orders',
    auth: true,
    summary: 'Create buy orders in a batch',
    description:
      'Each item creates an active order for (key, slug). An existing active order answers unchanged and is not modified (use PATCH). After a deleted, expired or failed order a new order is created. Once the project has launched: project_launched. Always 200 once authenticated and the body is valid.',
    body: S.CreateOrdersBody,
    responses: { 200: ok('Index-aligned results.', S.BatchResponse), 400: invalid, ...authErrors },
  },
  {
    method: 'GET',
    path: '/orders',
    auth: true,
    summary: "The key's buy orders",
    description:
      'Cursor-paginated, spend cap descending. Deleted orders are excluded unless status=deleted. An order filled by a locked launch method carries execution.vesting: its position, the schedule (start, lockupEnd, vestingEnd) and the state at the chain’s latest block time (vested, locked, released, releasable).',
    query: S.OrdersQuery,
    responses: { 200: ok('A page of orders.', S.OrderPageSchema), 400: invalid, ...authErrors },
  },
  {
    method: 'PATCH',
    path: '/orders',
    auth: true,
    summary: 'Update buy orders in a batch',
    description:
      'Changes the given fields of active orders (also after launch, while still active). Statuses: updated, unchanged. Codes: no_active_order (none or deleted), order_not_active (executing, filled, expired, failed), plus the value codes.',
    body: S.PatchOrdersBody,
    responses: { 200: ok('Index-aligned results.', S.BatchResponse), 400: invalid, ...authErrors },
  },
  {
    method: 'DELETE',
    path: '/orders',
    auth: true,
    summary: 'Delete buy orders in a batch',
    description:
      'Idempotent: deleted, or already_deleted when there is no active order (the record keeps its filled/expired/failed state). An executing order cannot be deleted (order_executing).',
    body: S.DeleteOrdersBody,
    responses: { 200: ok('Index-aligned results.', S.BatchResponse), 400: invalid, ...authErrors },
  },
  {
    method: 'GET',
    path: '/wallet',
    auth: true,
    summary: 'Wallet address and balances',
    description:
      'Every chain key is present; indexed tokens only, plus every token the wallet holds in vesting positions (a locked launch method), whose entry carries vesting: locked, releasable (neither counted in balance) and lockedUntil, at the chain’s latest block time.',
    responses: { 200: ok('The wallet.', S.Wallet), ...authErrors },
  },
  {
    method: 'POST',
    path: '/wallet/withdrawals',
    auth: true,
    summary: 'Withdraw an asset',
    description:
      'Sends an ERC-20 or native ETH to any address, waits for the receipt and returns the transaction hash. Bad address, unknown token or insufficient balance: 400, nothing is spent. A token held in vesting positions can be withdrawn up to balance + vesting.releasable (GET /wallet): when the amount exceeds the free balance, the vested positions are released in the same wallet operation, before the transfer (one transaction; what a release pays beyond the amount stays in the wallet). More is refused with tokens_locked, whose message says how much is locked until when; nothing moves.',
    body: S.WithdrawalBody,
    responses: {
      200: ok('Mined.', S.Withdrawal),
      400: err('Invalid body, address, token or amount, or insufficient balance (insufficient_balance), or the rest is locked in vesting (tokens_locked).'),
      503: err('Chain unavailable.'),
      ...authErrors,
    },
  },
  {
    method: 'POST',
    path: '/feedback',
    auth: false,
    summary: 'Send feedback',
    description: 'Stored for the operators.',
    body: S.FeedbackBody,
    responses: { 200: { description: 'Received.', schema: S.ReceiptSchema }, ...submissionErrors },
  },
]
