/** What class of failure an error is; the HTTP layers map a kind to a status in one place (error-mapping.ts). */
export type ErrorKind = 'bad_request' | 'unauthorized' | 'forbidden' | 'not_found' | 'conflict' | 'rate_limited' | 'unavailable' | 'internal'

/**
 * Who can read a code in an error body: `api` the public REST API (and the operator's too, when its operations
 * share the cause), `admin` only the operator's admin API and CLI, `daemon` nobody over HTTP (start-up, devnet
 * helpers and internal errors: an internal error's body never carries its code).
 */
export type ErrorSurface = 'api' | 'admin' | 'daemon'

interface ErrorCodeEntry {
  kind: ErrorKind
  surface: ErrorSurface
  /** What it means for the caller, published in the OpenAPI description (api codes) and docs. */
  meaning: string
  /**
   * The fields of `details` an error body with this code carries (each a string), published with the meaning; a code
   * without them sends no `details` (the list of problems of invalid_body / invalid_query aside).
   */
  details?: readonly string[]
}

/**
 * Every machine code an error can carry: its kind (which fixes the HTTP status), who can see it, what it means. A
 * PrebuyError is made from a code of this catalogue, so a new code is added here, once, with its meaning.
 */
export const ERROR_CODES = {
  // Public API: authentication, limits, request shape.
  missing_key: { kind: 'unauthorized', surface: 'api', meaning: 'No API key was sent (Authorization: Bearer <key>).' },
  invalid_key: { kind: 'unauthorized', surface: 'api', meaning: 'The API key is malformed, unknown or revoked.' },
  rate_limited: { kind: 'rate_limited', surface: 'api', meaning: 'Too many requests for this key or address in the current window.' },
  blocked: { kind: 'forbidden', surface: 'api', meaning: 'The requester (IP address, email or contact) is blocked from submitting.' },
  desk_closed: { kind: 'unavailable', surface: 'api', meaning: 'Submissions are closed for now; Retry-After says when to try again.' },
  invalid_body: { kind: 'bad_request', surface: 'api', meaning: 'The request body does not match its schema; `details` lists the problems.' },
  invalid_query: { kind: 'bad_request', surface: 'api', meaning: 'A query parameter does not match its schema; `details` lists the problems.' },
  invalid_cursor: { kind: 'bad_request', surface: 'api', meaning: 'The cursor was not issued by this listing.' },
  // Public API: keys, projects, wallets.
  label_taken: { kind: 'conflict', surface: 'api', meaning: 'Another key already has this label.' },
  invalid_label: { kind: 'bad_request', surface: 'api', meaning: 'The label is empty, too long or has characters a label may not have.' },
  key_not_found: { kind: 'not_found', surface: 'api', meaning: 'No key has this id (or label, for the operator).' },
  project_not_found: { kind: 'not_found', surface: 'api', meaning: 'No approved project has this slug.' },
  not_project_owner: { kind: 'forbidden', surface: 'api', meaning: 'Only the key that owns the project may change this.' },
  binding_fixed: {
    kind: 'conflict',
    surface: 'api',
    meaning:
      'The project has launched: what binds it to its launch (deployer, expected token) no longer changes; a dev_buy project’s expected token is recorded by its own launch only.',
  },
  invalid_token_text: {
    kind: 'bad_request',
    surface: 'api',
    meaning:
      'A token symbol or name recorded for the launch binding is empty, longer than 200 characters or has control characters, or a name was given without a symbol.',
  },
  invalid_chain: { kind: 'bad_request', surface: 'api', meaning: 'The chain must be base or second_chain.' },
  chain_disabled: { kind: 'bad_request', surface: 'api', meaning: 'This service does not run on that chain: it is disabled in its configuration.' },
  // Public API: lock and vesting terms (any launch method).
  invalid_lock_seconds: { kind: 'bad_request', surface: 'api', meaning: 'lockSeconds is not a whole number of seconds from 0 to 4 years.' },
  invalid_vesting_seconds: { kind: 'bad_request', surface: 'api', meaning: 'vestingSeconds is not a whole number of seconds from 0 to 4 years.' },
  // Public API: pooled OTC offers (owner endpoints).
  not_otc_project: { kind: 'conflict', surface: 'api', meaning: 'The project does not launch by pooled OTC: it has no OTC offer.' },
  otc_unavailable: { kind: 'unavailable', surface: 'api', meaning: 'This service has no OTC settlement contract on the project’s chain.' },
  invalid_otc_fdv: { kind: 'bad_request', surface: 'api', meaning: 'The OTC FDV is not a positive decimal USD amount within the FDV bounds.' },
  invalid_settle_at: { kind: 'bad_request', surface: 'api', meaning: 'The settlement time is not an ISO 8601 time in the future.' },
  invalid_otc_token: { kind: 'bad_request', surface: 'api', meaning: 'No ERC-20 token answers at this address on the project’s chain.' },
  invalid_otc_amount: {
    kind: 'bad_request',
    surface: 'api',
    meaning: 'The token amount is not positive, exceeds the total supply, or has more decimals than the token.',
  },
  otc_deposited: { kind: 'conflict', surface: 'api', meaning: 'The offered tokens are deposited: the offer no longer changes.' },
  change_pending: {
    kind: 'conflict',
    surface: 'api',
    meaning:
      "The owner's change of the offer waits for the operator's confirmation or its notice period: nothing is deposited until it takes effect (or the operator rejects it).",
  },
  otc_no_offer: { kind: 'conflict', surface: 'api', meaning: 'The project has no OTC offer yet: set it first.' },
  insufficient_token_balance: { kind: 'bad_request', surface: 'api', meaning: 'The owner’s wallet does not hold the tokens the offer needs.' },
  otc_settled: { kind: 'conflict', surface: 'api', meaning: 'The offer is settled: it no longer changes and cannot be cancelled.' },
  otc_settling: { kind: 'conflict', surface: 'api', meaning: 'The offer is being settled right now: it cannot be cancelled.' },
  otc_cancel_failed: { kind: 'conflict', surface: 'api', meaning: 'The cancellation operation did not go through; the offer stands.' },
  otc_no_owner_wallet: { kind: 'conflict', surface: 'api', meaning: 'The project has no (unrevoked) owner key, so no wallet to deposit from.' },
  not_dev_buy_project: { kind: 'conflict', surface: 'api', meaning: 'The project does not launch by dev buy: it has no dev-buy launch.' },
  dev_buy_unavailable: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'This service has no dev-buy launch for the project’s launchpad on its chain (a Clanker factory and our coordinator contract).',
  },
  invalid_dev_buy_params: { kind: 'bad_request', surface: 'api', meaning: 'A dev-buy launch parameter is missing, too long or has control characters.' },
  dev_buy_no_params: { kind: 'conflict', surface: 'api', meaning: 'The dev-buy launch has no parameters yet: set them first.' },
  dev_buy_requested: { kind: 'conflict', surface: 'api', meaning: 'The dev-buy launch is under way: its parameters no longer change.' },
  dev_buy_launched: { kind: 'conflict', surface: 'api', meaning: 'The project has launched: its dev-buy launch no longer changes.' },
  dev_buy_would_revert: {
    kind: 'conflict',
    surface: 'api',
    meaning:
      'The dev-buy launch would revert on chain now: `details.stage` says where (`deployment`: the launchpad refuses the token’s deployment; `quote`: the stablecoin’s swap to ETH), `details.revert` the decoded error’s name.',
    details: ['stage', 'revert'],
  },
  otc_deposit_failed: { kind: 'conflict', surface: 'api', meaning: 'The deposit operation did not go through; nothing was deposited.' },
  otc_terms_changed: {
    kind: 'conflict',
    surface: 'api',
    meaning: 'The offer’s terms changed while its deposit was sent: that deposit does not count; depositing again replaces it under a fresh id.',
  },
  invalid_address: { kind: 'bad_request', surface: 'api', meaning: 'An address is not a valid (non-zero, where required) 20-byte hex address.' },
  invalid_amount: { kind: 'bad_request', surface: 'api', meaning: 'An amount is not a positive decimal (or "max") within its token’s decimals.' },
  insufficient_balance: {
    kind: 'bad_request',
    surface: 'api',
    meaning: 'The wallet does not hold enough of the token for the withdrawal; `details.available` is what it can withdraw (smallest unit).',
    details: ['available'],
  },
  tokens_locked: {
    kind: 'bad_request',
    surface: 'api',
    meaning:
      'The amount exceeds what the wallet holds plus what has vested: the rest is locked in vesting positions; `details` says how much (smallest unit) until when (ISO 8601).',
    details: ['available', 'locked', 'nextUnlockAt', 'lockedUntil'],
  },
  token_not_contract: { kind: 'bad_request', surface: 'api', meaning: 'The token address is not an ERC-20 contract on that chain.' },
  invalid_destination: {
    kind: 'bad_request',
    surface: 'api',
    meaning: 'The destination is the token contract itself or the wallet itself: the withdrawal would lose the tokens or do nothing.',
  },
  destination_unrecoverable: {
    kind: 'bad_request',
    surface: 'api',
    meaning:
      'The destination is a known sink on that chain (one of the protocol contracts the service uses, an ERC-4337 EntryPoint, a precompile, an OP-stack predeploy): a transfer there succeeds and nothing can get it back.',
  },
  destination_cannot_receive: {
    kind: 'bad_request',
    surface: 'api',
    meaning: 'The transfer to this destination reverts when simulated (a contract that cannot receive ETH, or a token refusing it).',
  },
  amount_below_minimum: {
    kind: 'bad_request',
    surface: 'api',
    meaning: 'The amount is below the minimum withdrawal of this token (`details.minimum`, smallest unit); withdrawing the whole balance is always allowed.',
    details: ['minimum'],
  },
  withdrawal_rate_limited: { kind: 'rate_limited', surface: 'api', meaning: 'This key made too many withdrawals in the last hour; Retry-After says when.' },
  gas_reserved_for_launches: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'The service’s gas is low and kept for launch buys; withdrawals resume once the operator funds it (Retry-After).',
  },
  storage_unavailable: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'The service could not write to its disk (full or read-only); nothing was changed. Retry later (Retry-After).',
  },
  chain_unavailable: { kind: 'unavailable', surface: 'api', meaning: 'The chain could not be read right now; try again shortly.' },
  withdrawal_failed: { kind: 'unavailable', surface: 'api', meaning: 'The withdrawal did not succeed on chain; nothing was sent.' },
  withdrawal_pending: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'The withdrawal was sent but is not confirmed yet (`details.txHash`); check the balance before retrying.',
    details: ['txHash'],
  },
  too_many_operations: { kind: 'rate_limited', surface: 'api', meaning: 'The wallet has too many operations in flight; retry once they are mined.' },
  wallet_address_mismatch: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'A chain’s wallet factory derives another address for the new key’s wallet than the service computes; nothing was stored.',
  },
  bundle_send_failed: { kind: 'unavailable', surface: 'api', meaning: 'The service’s bundler could not send the transaction.' },
  bundle_simulation_failed: { kind: 'unavailable', surface: 'api', meaning: 'The service’s bundler could not simulate the operation.' },
  transaction_over_gas_cap: {
    kind: 'unavailable',
    surface: 'api',
    meaning: 'A transaction would ask for more gas than the chain allows one transaction (EIP-7825, 2^24 on Base); nothing was sent.',
  },
  bundler_unfunded: { kind: 'unavailable', surface: 'api', meaning: 'The service’s bundler account has too little ETH for gas; the operator must fund it.' },
  user_operation_estimate_failed: { kind: 'unavailable', surface: 'api', meaning: 'The external bundler could not estimate the operation.' },
  user_operation_not_mined: { kind: 'unavailable', surface: 'api', meaning: 'The external bundler did not get the operation mined in time.' },
  // Operator (admin API and CLI).
  invalid_request: { kind: 'bad_request', surface: 'admin', meaning: 'An admin request’s parameters or body do not match its schema.' },
  invalid_operator_token: { kind: 'unauthorized', surface: 'admin', meaning: 'A valid operator token is required.' },
  route_not_found: { kind: 'not_found', surface: 'admin', meaning: 'No such admin route.' },
  body_too_large: { kind: 'bad_request', surface: 'admin', meaning: 'The request body is too large.' },
  unsupported_media_type: { kind: 'bad_request', surface: 'admin', meaning: 'The request body must be JSON.' },
  internal_error: { kind: 'internal', surface: 'admin', meaning: 'The operation failed; the daemon log says why.' },
  change_not_found: { kind: 'not_found', surface: 'admin', meaning: 'The project has no pending owner change (of that kind).' },
  change_kind_required: { kind: 'bad_request', surface: 'admin', meaning: 'The project has more than one pending owner change: say which (--kind).' },
  change_not_applicable: {
    kind: 'conflict',
    surface: 'admin',
    meaning: 'The pending change can no longer take effect (the project launched, or its offer was deposited or settled); reject it.',
  },
  candidate_not_found: { kind: 'not_found', surface: 'admin', meaning: 'No launch candidate of that project has this token address.' },
  candidate_not_confirmable: {
    kind: 'conflict',
    surface: 'admin',
    meaning: 'The candidate is not awaiting confirmation or rejected, or is not a launch prebuy can buy.',
  },
  launch_method_unsupported: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'A dev_buy project launches through Clanker only: it cannot be approved with another launchpad.',
  },
  key_revoked: { kind: 'conflict', surface: 'admin', meaning: 'The key is revoked: it cannot be rotated or linked; issue a new one.' },
  not_launched: { kind: 'not_found', surface: 'admin', meaning: 'The project has not launched: there is no execution journal to read yet.' },
  review_not_found: { kind: 'not_found', surface: 'admin', meaning: 'No submission of that kind has this id.' },
  review_already_decided: { kind: 'conflict', surface: 'admin', meaning: 'The submission was already approved or rejected.' },
  feedback_not_reviewable: { kind: 'bad_request', surface: 'admin', meaning: 'Feedback is read, not approved or rejected.' },
  invalid_slug: { kind: 'bad_request', surface: 'admin', meaning: 'A slug is 1 to 64 lower-case letters, digits or dashes.' },
  slug_taken: { kind: 'conflict', surface: 'admin', meaning: 'A project with this slug already exists.' },
  invalid_block_type: { kind: 'bad_request', surface: 'admin', meaning: 'A blocklist entry is an ip, an email or a contact.' },
  invalid_block_value: { kind: 'bad_request', surface: 'admin', meaning: 'The blocklist value is not a valid entry of its type.' },
  devnet_only: { kind: 'bad_request', surface: 'admin', meaning: 'Devnet commands need the daemon to run its own devnet chains.' },
  not_on_devnet: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'The devnet daemon deploys its own contracts at start: `prebuy contracts deploy` is for real chains.',
  },
  devnet_launchpads_missing: {
    kind: 'unavailable',
    surface: 'admin',
    meaning: 'The devnet launchpads are not deployed yet; wait for the daemon to finish starting.',
  },
  not_a_devnet: { kind: 'forbidden', surface: 'admin', meaning: 'A devnet helper was pointed at a chain that is not a local devnet.' },
  devnet_unreachable: { kind: 'unavailable', surface: 'admin', meaning: 'The devnet chain does not answer.' },
  invalid_count: { kind: 'bad_request', surface: 'admin', meaning: 'A count (blocks to mine) is not a positive whole number.' },
  invalid_seconds: { kind: 'bad_request', surface: 'admin', meaning: 'A duration is not a positive whole number of seconds.' },
  invalid_launch_fee: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'A devnet launch fee schedule is out of range, or given for a launchpad whose fee is fixed (Zora).',
  },
  invalid_launch_pair: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'A devnet launch asks for a paired asset (or a creator coin) its launchpad does not launch with.',
  },
  invalid_dev_buy: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'A devnet dev buy is not a positive amount, or is asked of a launchpad without one (Clanker only).',
  },
  invalid_launch_positions: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'Devnet LP locker positions are given for a launchpad without one (Clanker only).',
  },
  pool_not_found: { kind: 'not_found', surface: 'admin', meaning: 'No devnet launchpad pool trades this token.' },
  invalid_auction_bid: {
    kind: 'bad_request',
    surface: 'admin',
    meaning: 'A devnet auction bid is given for a launchpad without an auction (only Clanker has SniperAuctionV2).',
  },
  // The daemon itself: start-up, chains, keys, and internal errors (never in a body).
  invalid_block_time: {
    kind: 'bad_request',
    surface: 'daemon',
    meaning: 'The devnet block time must be seconds from 0.1 to 60 in whole milliseconds (0.2 = 200 ms), "manual" or "auto".',
  },
  empty_passphrase: { kind: 'bad_request', surface: 'daemon', meaning: 'The passphrase is empty.' },
  wrong_passphrase: { kind: 'unauthorized', surface: 'daemon', meaning: 'The passphrase does not open the master secret.' },
  anvil_not_installed: { kind: 'unavailable', surface: 'daemon', meaning: 'The anvil package for this platform is not installed.' },
  anvil_unsupported_platform: { kind: 'unavailable', surface: 'daemon', meaning: 'No anvil build exists for this platform.' },
  devnet_start_failed: { kind: 'unavailable', surface: 'daemon', meaning: 'A devnet chain did not start.' },
  devnet_chain_crashed: { kind: 'unavailable', surface: 'daemon', meaning: 'A devnet chain crashed more often than its supervisor restarts it.' },
  devnet_no_state_file: { kind: 'internal', surface: 'daemon', meaning: 'A devnet chain was asked to dump its state but runs without a state file.' },
  eth_usd_pool_missing: { kind: 'unavailable', surface: 'daemon', meaning: 'The chain has no WETH/stablecoin pool to price ETH in USD.' },
  buy_router_missing: { kind: 'unavailable', surface: 'daemon', meaning: 'PrebuyBuyRouter is not deployed on the chain.' },
  store_too_new: { kind: 'unavailable', surface: 'daemon', meaning: 'The database was written by a newer version of prebuy.' },
  rpc_error: { kind: 'unavailable', surface: 'daemon', meaning: 'A JSON-RPC call returned an error.' },
  rpc_http_error: { kind: 'unavailable', surface: 'daemon', meaning: 'A JSON-RPC call failed at the HTTP level.' },
  account_factory_mismatch: { kind: 'internal', surface: 'daemon', meaning: 'The smart-account factory does not derive the expected addresses.' },
  contract_deploy_failed: {
    kind: 'internal',
    surface: 'daemon',
    meaning: 'A contract of ours (the buy router, the OTC settlement) could not be deployed on the devnet.',
  },
  create2_deployer_missing: { kind: 'internal', surface: 'daemon', meaning: 'The CREATE2 deployer is missing on the chain.' },
  devnet_deploy_failed: { kind: 'internal', surface: 'daemon', meaning: 'A devnet deployment step failed.' },
  devnet_deployments_invalid: { kind: 'internal', surface: 'daemon', meaning: 'devnet/deployments.json does not describe the running chains.' },
  devnet_tx_reverted: { kind: 'internal', surface: 'daemon', meaning: 'A devnet helper transaction reverted.' },
  faucet_failed: { kind: 'internal', surface: 'daemon', meaning: 'The devnet faucet could not fund the address.' },
  index_without_record: { kind: 'internal', surface: 'daemon', meaning: 'An index entry points at a record that does not exist.' },
  invalid_key_index: { kind: 'internal', surface: 'daemon', meaning: 'A key derivation index is out of range.' },
  invalid_master_secret: { kind: 'internal', surface: 'daemon', meaning: 'The master secret has the wrong length.' },
  invalid_order_transition: { kind: 'internal', surface: 'daemon', meaning: 'A writer tried an order move the state machine does not allow.' },
  invalid_project_change: { kind: 'internal', surface: 'daemon', meaning: 'A writer tried a project change the rules do not allow.' },
  invalid_user_index: { kind: 'internal', surface: 'daemon', meaning: 'A wallet was asked for with an invalid user index.' },
  launch_unsupported: { kind: 'bad_request', surface: 'admin', meaning: 'A devnet launch succeeded but is not one prebuy can buy (the reason says why).' },
  launch_not_decoded: { kind: 'internal', surface: 'daemon', meaning: 'A devnet launch transaction emitted no launch event.' },
  launch_pool_not_found: { kind: 'internal', surface: 'daemon', meaning: 'A launch transaction has no matching pool initialisation.' },
  no_factory_args: { kind: 'internal', surface: 'daemon', meaning: 'The smart account gave no factory arguments.' },
  no_token_salt: { kind: 'internal', surface: 'daemon', meaning: 'No salt was found for a devnet token.' },
  nonce_stream_out_of_range: { kind: 'internal', surface: 'daemon', meaning: 'A nonce stream does not fit the account’s nonce key.' },
  pending_launch_log: { kind: 'internal', surface: 'daemon', meaning: 'A launch log without its block or transaction was handed on.' },
  reorg_too_deep: { kind: 'internal', surface: 'daemon', meaning: 'A reorg reached below the finalized block.' },
  review_kind: { kind: 'internal', surface: 'daemon', meaning: 'A submission is of an unexpected kind.' },
  store_migration_missing: { kind: 'internal', surface: 'daemon', meaning: 'No migration leads to a store layout version.' },
  swap_not_found: { kind: 'internal', surface: 'daemon', meaning: 'A devnet swap transaction has no Swap log.' },
  sync_already_started: { kind: 'internal', surface: 'daemon', meaning: 'A realtime sync was started twice.' },
  sync_start_missing: { kind: 'internal', surface: 'daemon', meaning: 'A realtime sync has no start block.' },
  unreadable_master_secret: { kind: 'internal', surface: 'daemon', meaning: 'The master secret file could not be read.' },
  unsupported_secret_format: { kind: 'internal', surface: 'daemon', meaning: 'The master secret file has an unknown format.' },
  user_operation_hash_mismatch: { kind: 'internal', surface: 'daemon', meaning: 'An external bundler answered another operation hash than ours.' },
} as const satisfies Record<string, ErrorCodeEntry>

export type ErrorCode = keyof typeof ERROR_CODES

/** The codes a public API error body can carry (the OpenAPI document lists them). */
export const API_ERROR_CODES = (Object.keys(ERROR_CODES) as ErrorCode[]).filter((code) => ERROR_CODES[code].surface === 'api')
