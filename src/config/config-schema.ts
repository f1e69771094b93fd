import { MAX_SENDER_ACCOUNTS } from '../wallets/bundler/sender-pool.ts'
import { isIP } from 'node:net'
import { formatUnits } from 'viem'
import { z } from 'zod'
import { BASE_BLOCK_SECONDS, DEFAULT_DEVNET_BLOCK_SECONDS, isBlockSeconds, MAX_BLOCK_SECONDS, MIN_BLOCK_SECONDS } from '../chain/block-seconds.ts'
import { BASE_CHAIN_ID, BASE_DEFAULT_ADDRESSES } from '../chain/real-chains.ts'
import { EIP_7825_TX_GAS_CAP, MIN_TX_GAS_CAP } from '../chain/tx-gas-cap.ts'
import { checksumAddressSchema, configAddressSchema } from '../common/schemas.ts'
import { BASE_ZORA_TOKEN } from '../launchpads/zora/zora-route.ts'
import { routeProblem } from '../pricing/route-price.ts'
import { parseTokenAmount } from '../wallets/parse-token-amount.ts'
import { DEFAULT_WITHDRAWAL_POLICY } from '../wallets/withdrawal-policy.ts'
import { trustedSpace } from './trust-proxy-coverage.ts'

/**
 * The daemon's configuration, validated once at start-up. Every message is written to be read on one line after the
 * field's path ("port: expected an integer from 1 to 65535"), so a bad config names what to fix and nothing else.
 */

const port = () =>
  z
    .number({ error: 'expected an integer from 1 to 65535' })
    .int({ error: 'expected an integer from 1 to 65535' })
    .min(1, { error: 'expected an integer from 1 to 65535' })
    .max(65535, { error: 'expected an integer from 1 to 65535' })

/** An IPv4/IPv6 address, or a CIDR block of one (`10.0.0.0/8`, `fd00::/8`). */
export function isAddressOrCidr(value: string): boolean {
  const [address, prefix, ...rest] = value.split('/')
  const family = isIP(address ?? '')
  if (family === 0 || rest.length > 0) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)
}

const TRUST_PROXY_MESSAGE = 'expected false or a list of proxy addresses or CIDRs, e.g. ["127.0.0.1", "10.0.0.0/8"]'
const trustProxySchema = z.union(
  [
    z.literal(false, { error: TRUST_PROXY_MESSAGE }),
    z
      .array(z.string().refine(isAddressOrCidr, { error: 'expected an IP address or a CIDR such as 10.0.0.0/8' }), { error: TRUST_PROXY_MESSAGE })
      .min(1, { error: TRUST_PROXY_MESSAGE })
      .superRefine((entries, context) => {
        const space = trustedSpace(entries)
        if (space)
          context.addIssue({
            code: 'custom',
            message: `these ranges together trust ${space}, which believes any such client's X-Forwarded-For (per-IP limits and the blocklist bypassed): list only your proxies' addresses, e.g. ["127.0.0.1"]`,
          })
      }),
  ],
  {
    error: (issue) =>
      issue.input === true
        ? 'true would believe any client\'s X-Forwarded-For (per-IP limits and the blocklist bypassed): list your proxies\' addresses, e.g. ["127.0.0.1"]'
        : TRUST_PROXY_MESSAGE,
  },
)

/** An origin as browsers send it in the Origin header (RFC 6454 serialisation, via WHATWG URL's `origin`). */
const isExactOrigin = (value: string): boolean => {
  if (!URL.canParse(value)) return false
  const parsed = new URL(value)
  return (parsed.protocol === 'https:' || parsed.protocol === 'http:') && parsed.origin === value
}

const ORIGIN_MESSAGE = 'expected an exact origin such as "https://app.example" (scheme, host, port if not the default; lower case, no path or trailing slash)'

const corsOriginSchema = z
  .string({ error: ORIGIN_MESSAGE })
  .refine((value) => value !== '*', {
    error: '"*" would let every web page call the API with a key it holds: list the origins of your web apps, e.g. "https://app.example"',
  })
  .refine((value) => value === '*' || isExactOrigin(value), { error: ORIGIN_MESSAGE })

/** wallet.senderAccounts when unset: the devnet funds four; on a real chain every further account needs the operator's ETH. */
export const DEFAULT_SENDER_ACCOUNTS = { devnet: 4, rpc: 1 } as const

/** The sender accounts a config runs with (wallet.senderAccounts, else the mode's default). */
export const senderAccountsOf = (config: { chains: { mode: 'devnet' | 'rpc' }; wallet: { senderAccounts?: number | undefined } }): number =>
  config.wallet.senderAccounts ?? DEFAULT_SENDER_ACCOUNTS[config.chains.mode]

const positiveInt = (max: number) =>
  z
    .number({ error: `expected an integer from 1 to ${max}` })
    .int({ error: `expected an integer from 1 to ${max}` })
    .min(1, { error: `expected an integer from 1 to ${max}` })
    .max(max, { error: `expected an integer from 1 to ${max}` })

/** A decimal token amount as a string ("1", "0.0005"): exact, never a float. */
const decimalAmount = () =>
  z
    .string({ error: 'expected a decimal amount as a string, e.g. "0.5"' })
    .regex(/^\d{1,30}(\.\d{1,18})?$/, { error: 'expected a decimal amount as a string, e.g. "0.5"' })

/** The smallest per-transaction tip cap: a 1-wei tip (the node's minimum) on a transaction at the 2^24 gas cap. */
const MIN_TIP_CAP_WEI = 2n ** 24n

/** Whether an ETH amount (decimal string) is at least `wei`; zero (refused by parseTokenAmount) is not. */
const atLeastWei = (value: string, wei: bigint): boolean => {
  try {
    return parseTokenAmount(value, 18) >= wei
  } catch {
    return false
  }
}

const PRIORITY_FEE_DEFAULTS = { maxEthPerTx: '0.005', launchMultiplier: 3, launchBlocks: 25 }

/**
 * wallet.priorityFee: a fixed tip (`fixedGwei`, gwei per gas) or a percentile of eth_feeHistory (`percentile` of the
 * last `blocks` blocks; the default, 75th of 20); the most tip one transaction may pay (`maxEthPerTx`); and a
 * multiplier for the first `launchBlocks` blocks of a launch.
 */
const priorityFeeSchema = z
  .strictObject({
    fixedGwei: z
      .string({ error: 'expected gwei per gas as a decimal string, e.g. "0.01"' })
      .regex(/^\d{1,12}(\.\d{1,9})?$/, { error: 'expected gwei per gas as a decimal string, e.g. "0.01"' })
      .optional(),
    percentile: positiveInt(99).optional(),
    blocks: positiveInt(1024).optional(),
    maxEthPerTx: decimalAmount()
      .refine((value) => atLeastWei(value, MIN_TIP_CAP_WEI), {
        error: `expected at least ${formatUnits(MIN_TIP_CAP_WEI, 18)} ETH (a 1-wei tip on a transaction of 2^24 gas)`,
      })
      .default(PRIORITY_FEE_DEFAULTS.maxEthPerTx),
    launchMultiplier: z
      .number({ error: 'expected a number from 1 to 100 (two decimals at most)' })
      .min(1, { error: 'expected a number from 1 to 100 (two decimals at most)' })
      .max(100, { error: 'expected a number from 1 to 100 (two decimals at most)' })
      .refine((value) => Number.isInteger(Math.round(value * 100)) && Math.abs(value * 100 - Math.round(value * 100)) < 1e-9, {
        error: 'expected a number from 1 to 100 (two decimals at most)',
      })
      .default(PRIORITY_FEE_DEFAULTS.launchMultiplier),
    launchBlocks: z
      .number({ error: 'expected an integer from 0 to 100000' })
      .int({ error: 'expected an integer from 0 to 100000' })
      .min(0, { error: 'expected an integer from 0 to 100000' })
      .max(100_000, { error: 'expected an integer from 0 to 100000' })
      .default(PRIORITY_FEE_DEFAULTS.launchBlocks),
  })
  .superRefine((value, ctx) => {
    if (value.fixedGwei !== undefined && value.percentile !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['fixedGwei'], message: 'set either fixedGwei or percentile, not both' })
    }
    if (value.blocks !== undefined && value.fixedGwei !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['blocks'], message: 'only with percentile (a fixed tip reads no fee history)' })
    }
  })

const url = (schemes: readonly string[]) => {
  const error = `expected an ${schemes.join(' or ')} URL`
  return z.string({ error }).refine(
    (value) => {
      try {
        return schemes.includes(new URL(value).protocol.replace(/:$/, ''))
      } catch {
        return false
      }
    },
    { error },
  )
}

/**
 * Real Base defaults live with the chain layer (src/chain/real-chains.ts) so there is one list: every address of
 * `base` has one, so an rpc-mode config names only Base's URLs. The second chain has none.
 */
export { BASE_DEFAULT_ADDRESSES }

/** Chain addresses are normalised to their checksum form; a mixed-case one with a wrong checksum is refused. */
const addressesShape = {
  stablecoin: configAddressSchema,
  weth: configAddressSchema,
  poolManager: configAddressSchema,
  stateView: configAddressSchema,
  v4Quoter: configAddressSchema,
  /** Not used by the service on a real chain (only the devnet's fixtures add liquidity): optional. */
  positionManager: configAddressSchema.optional(),
  universalRouter: configAddressSchema,
  permit2: configAddressSchema,
  entryPoint: configAddressSchema,
  /** Used only by SimpleAccount wallets (Kernel's factory is permissionless' canonical one): required with accountKind 'simple'. */
  accountFactory: configAddressSchema.optional(),
  multicall3: configAddressSchema,
  v3Factory: configAddressSchema,
  ethUsdPool: configAddressSchema,
}

type RpcAddresses = z.output<z.ZodObject<typeof addressesShape>>

const TX_GAS_CAP_ERROR = `expected a gas amount from ${MIN_TX_GAS_CAP} to 1000000000 (EIP-7825 caps a transaction at ${EIP_7825_TX_GAS_CAP})`

const rpcChain = (addresses: z.ZodType<RpcAddresses, unknown>, chainId: z.ZodType<number, unknown>) =>
  z.strictObject({
    chainId,
    rpcUrl: url(['http', 'https']),
    wsUrl: url(['ws', 'wss']),
    /**
     * Optional third-party ERC-4337 bundler for this chain instead of the service's own bundler EOA. Such bundlers
     * refuse zero-fee operations, so in this mode wallets pay their own gas (docs/chains.md).
     */
    bundlerUrl: url(['http', 'https']).optional(),
    /**
     * Seconds between this chain's blocks, for what the daemon derives in wall time from block counts (readiness lag,
     * finality depth, backoff; src/chain/block-seconds.ts). Base: 0.2 (the default); another chain: set it.
     */
    blockTime: blockSeconds().default(BASE_BLOCK_SECONDS),
    /**
     * Most gas one transaction may ask for: EIP-7825's 2^24 by default (Base since Azul, src/chain/tx-gas-cap.ts). A
     * chain without EIP-7825 may raise it; it is never read from the block gas limit (bundles are sized against it).
     */
    txGasCap: z
      .number({ error: TX_GAS_CAP_ERROR })
      .int({ error: TX_GAS_CAP_ERROR })
      .min(Number(MIN_TX_GAS_CAP), { error: TX_GAS_CAP_ERROR })
      .max(1_000_000_000, { error: TX_GAS_CAP_ERROR })
      .default(Number(EIP_7825_TX_GAS_CAP)),
    /**
     * HTTP URL for the API's reads (balances, funding), apart from the indexer's and executor's `rpcUrl` so API
     * traffic never competes with launch buys for the provider's rate limit (docs/chains.md "RPC budget"). Default: rpcUrl.
     */
    readRpcUrl: url(['http', 'https']).optional(),
    /** Widest eth_getLogs block range asked of this chain's provider (default 2,000; halved when the provider refuses). */
    getLogsMaxBlocks: positiveInt(1_000_000).optional(),
    /**
     * The sanity band on ETH/USD (issue 24; src/pricing/eth-usd-band.ts): the v3 pool's spot is compared with its TWAP
     * over `twapSeconds` (default 600); beyond `bandBps` (default 200, 2%) eligibility prices at the higher of the two.
     */
    ethUsdBand: z.strictObject({ twapSeconds: positiveInt(86_400).default(600), bandBps: positiveInt(10_000).default(200) }).optional(),
    addresses,
  })

const baseAddresses = z
  .strictObject(
    Object.fromEntries(
      Object.entries(addressesShape).map(([key, schema]) => {
        const fallback = (BASE_DEFAULT_ADDRESSES as Record<string, `0x${string}`>)[key]
        return [key, fallback === undefined ? schema : schema.default(fallback)]
      }),
    ) as { [K in keyof typeof addressesShape]: (typeof addressesShape)[K] },
  )
  .prefault({} as never)

const BLOCK_TIME_ERROR = `expected seconds from ${MIN_BLOCK_SECONDS} to ${MAX_BLOCK_SECONDS} in whole milliseconds (e.g. 0.2 or 2), 'manual' or 'auto'`

/**
 * Seconds between blocks, fractional allowed: 0.2 is Base since Denim (2026-11-05, five blocks a second;
 * docs.base.org/base-chain/specs/upgrades/denim/overview), 2 is Base before it. Whole seconds written before
 * fractions were accepted keep their meaning.
 */
const blockSeconds = () => z.number({ error: BLOCK_TIME_ERROR }).refine(isBlockSeconds, { error: BLOCK_TIME_ERROR })

const MIN_STATE_DUMP_SECONDS = 1
const MAX_STATE_DUMP_SECONDS = 86_400
/** The devnet's state dump interval when none is given (devnet/chain/start-devnet.ts STATE_INTERVAL_SECONDS: 2). */
const DEFAULT_STATE_DUMP_SECONDS = 2
const STATE_DUMP_ERROR = `expected seconds from ${MIN_STATE_DUMP_SECONDS} to ${MAX_STATE_DUMP_SECONDS} or 'on_stop'`

/** Devnet: the daemon starts and owns one anvil per chain. */
export const devnetChainsSchema = z.strictObject({
  mode: z.literal('devnet'),
  /** Seconds between blocks (0.2 = 200 ms as Base), 'manual' (mined on demand) or 'auto' (one per transaction). */
  blockTime: z.union([blockSeconds(), z.literal('manual'), z.literal('auto')], { error: BLOCK_TIME_ERROR }).default(DEFAULT_DEVNET_BLOCK_SECONDS),
  /**
   * Seconds between the chains' periodic state dumps (what a kill -9 of the daemon and its chains can lose), or
   * 'on_stop': none, the state written at a graceful stop only. Each dump freezes the chain for tens of ms
   * (docs/devnet.md, "State persistence"), which Base never does.
   */
  stateDumpSeconds: z
    .union(
      [
        z.number({ error: STATE_DUMP_ERROR }).min(MIN_STATE_DUMP_SECONDS, { error: STATE_DUMP_ERROR }).max(MAX_STATE_DUMP_SECONDS, { error: STATE_DUMP_ERROR }),
        z.literal('on_stop'),
      ],
      {
        error: STATE_DUMP_ERROR,
      },
    )
    .default(DEFAULT_STATE_DUMP_SECONDS),
})

/**
 * Real chains reached over RPC. Base defaults to its published addresses. The second chain is optional: left out, it
 * is disabled (nothing connects to it, waits for it or shows it; API requests naming it are refused with
 * chain_disabled; docs/chains.md).
 */
export const rpcChainsSchema = z.strictObject({
  mode: z.literal('rpc'),
  // The chain named `base` is Base: its id is locked (start-up then checks the node answers it, verify-chain.ts).
  base: rpcChain(baseAddresses, z.literal(BASE_CHAIN_ID, { error: `the chain named base is Base, chain id ${BASE_CHAIN_ID}` }).default(BASE_CHAIN_ID)),
  second_chain: rpcChain(z.strictObject(addressesShape), positiveInt(2 ** 31)).optional(),
})

/** A Uniswap v4 pool key with a static fee (pips) and no more than the PoolManager accepts. */
const poolKeySchema = z.strictObject({
  currency0: checksumAddressSchema,
  currency1: checksumAddressSchema,
  fee: z.number().int().min(0).max(1_000_000, { error: 'a static fee in pips, at most 1,000,000 (no dynamic-fee flag)' }),
  tickSpacing: z.number().int().min(1).max(32_767),
  hooks: checksumAddressSchema,
})

const chainsSchema = z.discriminatedUnion('mode', [devnetChainsSchema, rpcChainsSchema], {
  error: "expected mode 'devnet' or 'rpc'",
})

/**
 * Fee recipient used on devnet when none is configured: a fixed, easily recognised address nobody holds a key for,
 * so devnet fee accounting is visible and deterministic. Real chains must configure their own.
 */
export const DEVNET_FEE_RECIPIENT = '0x000000000000000000000000000000000000fee1' as const

export const configSchema = z
  .strictObject({
    host: z.string({ error: 'expected a host name or IP address' }).min(1, { error: 'expected a host name or IP address' }).default('127.0.0.1'),
    port: port().default(8787),
    /** Admin API port (loopback only). Defaults to port + 1. */
    adminPort: port().optional(),
    dataDir: z.string({ error: 'expected a directory path' }).min(1, { error: 'expected a directory path' }).default('./data'),
    logLevel: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'expected one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
    /** Public API requests whose two log lines are kept per minute; the others are counted in one summary line. */
    requestLogPerMinute: positiveInt(1_000_000).default(300),
    chains: chainsSchema.default({ mode: 'devnet', blockTime: DEFAULT_DEVNET_BLOCK_SECONDS, stateDumpSeconds: DEFAULT_STATE_DUMP_SECONDS }),
    rateLimits: z
      .strictObject({
        perKeyPerMinute: positiveInt(1_000_000).default(100),
        apiKeyCreationPerIpPerHour: positiveInt(1_000_000).default(10),
        submissionsPerIpPerHour: positiveInt(1_000_000).default(20),
      })
      .default({ perKeyPerMinute: 100, apiKeyCreationPerIpPerHour: 10, submissionsPerIpPerHour: 20 }),
    /**
     * The reverse proxies whose X-Forwarded-For is believed (addresses or CIDRs), so per-IP limits and the blocklist see
     * the client's address; false (the default): none. `true` (every client's header believed) is refused.
     */
    trustProxy: trustProxySchema.default(false),
    /**
     * Browser origins allowed to call the public API (CORS, daemon/http/cors.ts): exact origins, `*` refused. Empty (the
     * default): no CORS headers, a browser page on another origin cannot read any answer.
     */
    cors: z.strictObject({ origins: z.array(corsOriginSchema, { error: 'expected a list of origins' }).max(100).default([]) }).default({ origins: [] }),
    /** Receives the 3% platform fee. Required on real chains. */
    feeRecipient: configAddressSchema.optional(),
    wallet: z
      .strictObject({
        /**
         * simple: the canonical SimpleAccount v0.7 (the default everywhere). kernel: Kernel v3.1 at its canonical
         * addresses (the devnet places it there; the executor, withdrawal and crash suites run on it: docs/chains.md).
         */
        accountKind: z.enum(['simple', 'kernel'], { error: "expected 'simple' or 'kernel'" }).optional(),
        /**
         * Deploy the funded wallets of buyers waiting for a launch before it (gas paid by the service, as their first
         * buy would have): launch buys then need less gas and more of them fit the first block.
         */
        deployAhead: z.boolean({ error: 'expected true or false' }).default(true),
        /** Under this much ETH the bundler EOA (it pays every buy's gas) is low: logged as a warning, shown by `daemon status`. */
        bundlerLowEth: decimalAmount().default('0.01'),
        /** The tip the bundler EOA's transactions offer (src/wallets/bundler/priority-fee-policy.ts; docs/operations.md). */
        priorityFee: priorityFeeSchema.default(PRIORITY_FEE_DEFAULTS),
        /**
         * How many accounts send the service's transactions on each chain, each with its own nonces, so one launch's
         * transactions go out in parallel (src/wallets/bundler/sender-pool.ts). Account 0 is the bundler EOA; the others
         * derive from the same master secret. Each needs ETH (`daemon status` lists them). Default: 4 on the devnet
         * (funded by it), 1 in rpc mode until the operator funds more (DEFAULT_SENDER_ACCOUNTS).
         */
        senderAccounts: positiveInt(MAX_SENDER_ACCOUNTS).optional(),
      })
      .default({ deployAhead: true, bundlerLowEth: '0.01', priorityFee: PRIORITY_FEE_DEFAULTS }),
    /** Limits on withdrawals, whose gas the service pays (see src/wallets/withdrawal-policy.ts). */
    withdrawals: z
      .strictObject({
        minStablecoin: decimalAmount().default(DEFAULT_WITHDRAWAL_POLICY.minStablecoin),
        minEth: decimalAmount().default(DEFAULT_WITHDRAWAL_POLICY.minEth),
        perKeyPerHour: positiveInt(1_000_000).default(DEFAULT_WITHDRAWAL_POLICY.perKeyPerHour),
        bundlerReserveEth: decimalAmount().default(DEFAULT_WITHDRAWAL_POLICY.bundlerReserveEth),
      })
      .default(DEFAULT_WITHDRAWAL_POLICY),
    launches: z
      .strictObject({
        /**
         * Deployers that launch for many people (platform contracts, Bankr's deployer, bots): a project registered with
         * one of them binds to a launch only through its expected token address or an operator's confirmation.
         */
        sharedDeployers: z.array(configAddressSchema).max(1_000).default([]),
        /**
         * Real Base: the v4 pool ZORA is bought through and priced by (ZORA with native ETH or WETH, a static fee), for
         * Zora coins paired with ZORA (every creator coin). Not set: those coins are reported unsupported. The devnet
         * deploys its own.
         */
        zoraEthPool: poolKeySchema.optional(),
      })
      .default({ sharedDeployers: [] }),
    /**
     * Changes by a project's owner of what the orders buy (launch binding, OTC terms; docs/owner-changes.md): confirmed
     * by the operator, then in force after this notice period when orders placed before the proposal are live.
     */
    ownerChanges: z
      .strictObject({
        noticeHours: z
          .number()
          .min(0)
          .max(24 * 90)
          .default(48),
      })
      .default({ noticeHours: 48 }),
  })
  .superRefine((config, ctx) => {
    if (config.chains.mode === 'rpc' && config.feeRecipient === undefined) {
      ctx.addIssue({ code: 'custom', path: ['feeRecipient'], message: "required when chains.mode is 'rpc'" })
    }
    const zoraEthPool = config.launches.zoraEthPool
    if (zoraEthPool) {
      // Checked once here, so the indexer never meets a route that does not lead from WETH/ETH to ZORA.
      const weth = config.chains.mode === 'rpc' ? config.chains.base.addresses.weth : BASE_DEFAULT_ADDRESSES.weth
      const problem =
        config.chains.mode === 'devnet' ? 'only for real chains (the devnet deploys its own ZORA pool)' : routeProblem([zoraEthPool], weth, BASE_ZORA_TOKEN)
      if (problem) ctx.addIssue({ code: 'custom', path: ['launches', 'zoraEthPool'], message: problem })
    }
    if (config.chains.mode === 'rpc') {
      const chains = config.chains
      // The same default load-config.ts applies (SimpleAccount v0.7).
      const accountKind = config.wallet.accountKind ?? 'simple'
      for (const key of ['base', 'second_chain'] as const) {
        const chain = chains[key]
        if (chain === undefined) continue
        if (chain.bundlerUrl !== undefined) {
          // Third-party bundlers refuse zero-fee operations, so the wallet would pay its gas in ETH; buyers fund their
          // wallets with the stablecoin only, and an ERC-7677 paymaster is not implemented (docs/chains.md).
          ctx.addIssue({
            code: 'custom',
            path: ['chains', key, 'bundlerUrl'],
            message: 'an external bundler is not supported yet: wallets hold only the stablecoin and could not pay their gas (no paymaster); remove it',
          })
        }
        if (accountKind === 'simple' && chain.addresses.accountFactory === undefined) {
          ctx.addIssue({ code: 'custom', path: ['chains', key, 'addresses', 'accountFactory'], message: "required with wallet.accountKind 'simple'" })
        }
      }
    }
  })

export type ConfigInput = z.input<typeof configSchema>
export type ParsedConfig = z.output<typeof configSchema>
export type RpcChainsConfig = z.output<typeof rpcChainsSchema>
export type DevnetChainsConfig = z.output<typeof devnetChainsSchema>
