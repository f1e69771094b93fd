import { isIP } from 'node:net'
import { z } from 'zod'
import { BASE_DEFAULT_ADDRESSES } from '../chain/real-chains.ts'
import { addressSchema, checksumAddressSchema } from '../common/schemas.ts'
import { BASE_ZORA_TOKEN } from '../launchpads/zora/zora-route.ts'
import { routeProblem } from '../pricing/route-price.ts'
import { DEFAULT_WITHDRAWAL_POLICY } from '../wallets/withdrawal-policy.ts'

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
      .min(1, { error: TRUST_PROXY_MESSAGE }),
  ],
  {
    error: (issue) =>
      issue.input === true
        ? 'true would believe any client\'s X-Forwarded-For (per-IP limits and the blocklist bypassed): list your proxies\' addresses, e.g. ["127.0.0.1"]'
        : TRUST_PROXY_MESSAGE,
  },
)

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
 * Real Base defaults live with the chain layer (src/chain/real-chains.ts) so there is one list. The v4
 * PositionManager, the smart-account factory and the ETH/USD pool are not in the facts, so they have no default and
 * must be configured for real Base.
 */
export { BASE_DEFAULT_ADDRESSES }

const addressesShape = {
  stablecoin: addressSchema,
  weth: addressSchema,
  poolManager: addressSchema,
  stateView: addressSchema,
  v4Quoter: addressSchema,
  /** Not used by the service on a real chain (only the devnet's fixtures add liquidity): optional. */
  positionManager: addressSchema.optional(),
  universalRouter: addressSchema,
  permit2: addressSchema,
  entryPoint: addressSchema,
  /** Used only by SimpleAccount wallets (Kernel's factory is permissionless' canonical one): required with accountKind 'simple'. */
  accountFactory: addressSchema.optional(),
  multicall3: addressSchema,
  v3Factory: addressSchema,
  ethUsdPool: addressSchema,
}

type RpcAddresses = z.output<z.ZodObject<typeof addressesShape>>

const rpcChain = (addresses: z.ZodType<RpcAddresses>, chainId: z.ZodType<number>) =>
  z.strictObject({
    chainId,
    rpcUrl: url(['http', 'https']),
    wsUrl: url(['ws', 'wss']),
    /**
     * Optional third-party ERC-4337 bundler for this chain instead of the service's own bundler EOA. Such bundlers
     * refuse zero-fee operations, so in this mode wallets pay their own gas (docs/chains.md).
     */
    bundlerUrl: url(['http', 'https']).optional(),
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

const BLOCK_TIME_ERROR = "expected whole seconds from 1 to 60, 'manual' or 'auto'"

/** Devnet: the daemon starts and owns one anvil per chain. */
export const devnetChainsSchema = z.strictObject({
  mode: z.literal('devnet'),
  /** Whole seconds between blocks (Base produces one every 2 s), 'manual' (mined on demand) or 'auto' (one per transaction). */
  blockTime: z
    .union(
      [
        // Every check carries the same text: the union reports the number branch's issue for 0 or 1.5.
        z.number({ error: BLOCK_TIME_ERROR }).int({ error: BLOCK_TIME_ERROR }).min(1, { error: BLOCK_TIME_ERROR }).max(60, { error: BLOCK_TIME_ERROR }),
        z.literal('manual'),
        z.literal('auto'),
      ],
      { error: BLOCK_TIME_ERROR },
    )
    .default(2),
})

/**
 * Real chains reached over RPC. Base defaults to its published addresses. The second chain is optional: left out, it
 * is disabled (nothing connects to it, waits for it or shows it; API requests naming it are refused with
 * chain_disabled; docs/chains.md).
 */
export const rpcChainsSchema = z.strictObject({
  mode: z.literal('rpc'),
  base: rpcChain(baseAddresses, positiveInt(2 ** 31).default(8453)),
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
    chains: chainsSchema.default({ mode: 'devnet', blockTime: 2 }),
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
    /** Receives the 3% platform fee. Required on real chains. */
    feeRecipient: addressSchema.optional(),
    wallet: z
      .strictObject({
        /** simple: SimpleAccount v0.7 (devnet); kernel: Kernel v3.1 (the production default on real chains). */
        accountKind: z.enum(['simple', 'kernel'], { error: "expected 'simple' or 'kernel'" }).optional(),
        /**
         * Deploy the funded wallets of buyers waiting for a launch before it (gas paid by the service, as their first
         * buy would have): launch buys then need less gas and more of them fit the first block.
         */
        deployAhead: z.boolean({ error: 'expected true or false' }).default(true),
        /** Under this much ETH the bundler EOA (it pays every buy's gas) is low: logged as a warning, shown by `daemon status`. */
        bundlerLowEth: decimalAmount().default('0.01'),
      })
      .default({ deployAhead: true, bundlerLowEth: '0.01' }),
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
        sharedDeployers: z.array(addressSchema).max(1_000).default([]),
        /**
         * Real Base: the v4 pool ZORA is bought through and priced by (ZORA with native ETH or WETH, a static fee), for
         * Zora coins paired with ZORA (every creator coin). Not set: those coins are reported unsupported. The devnet
         * deploys its own.
         */
        zoraEthPool: poolKeySchema.optional(),
      })
      .default({ sharedDeployers: [] }),
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
      const accountKind = config.wallet.accountKind ?? 'kernel'
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
    if (config.chains.mode === 'devnet' && config.wallet.accountKind === 'kernel') {
      // Kernel bytecode is not published on npm, so the devnet cannot deploy it.
      ctx.addIssue({ code: 'custom', path: ['wallet', 'accountKind'], message: "'kernel' needs chains.mode 'rpc' (devnet deploys SimpleAccount)" })
    }
  })

export type ConfigInput = z.input<typeof configSchema>
export type ParsedConfig = z.output<typeof configSchema>
export type RpcChainsConfig = z.output<typeof rpcChainsSchema>
export type DevnetChainsConfig = z.output<typeof devnetChainsSchema>
