import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { BASE_DEFAULT_ADDRESSES } from '../../src/chain/real-chains.ts'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ConfigError, describeConfig, loadConfig } from '../../src/config/index.ts'
import { enabledChainKeys } from '../../src/chain/enabled-chains.ts'
import { externalBundlerUrls, rpcChainConfigs } from '../../src/config/rpc-chain-configs.ts'
import { CHAIN_ADDRESS_NAMES, FAKE_ADDRESSES } from '../support/rpc-config-file.ts'

const BASE_EXTRA = {
  positionManager: '0x3333333333333333333333333333333333333333',
  accountFactory: '0x4444444444444444444444444444444444444444',
  ethUsdPool: '0x5555555555555555555555555555555555555555',
}
const PASS = { PREBUY_PASSPHRASE: 'correct horse battery' }
const BLOCK_TIME_TEXT = "expected seconds from 0.1 to 60 in whole milliseconds (e.g. 0.2 or 2), 'manual' or 'auto'"
let dir: string

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-config-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const writeFileConfig = (value: unknown) => writeFile(join(dir, 'config.json'), typeof value === 'string' ? value : JSON.stringify(value))

/** An rpc-mode chains section: Base with its undocumented addresses, the second chain with every address. */
function rpcChains() {
  const addresses = Object.fromEntries(CHAIN_ADDRESS_NAMES.map((k) => [k, '0x2222222222222222222222222222222222222222'])) as Record<string, string>
  const chains = {
    mode: 'rpc',
    base: { rpcUrl: 'http://x', wsUrl: 'ws://x', addresses: BASE_EXTRA },
    second_chain: { chainId: 5, rpcUrl: 'http://y', wsUrl: 'ws://y', addresses },
  }
  return { chains, addresses }
}

async function configErrorOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    const line = (error as Error).message
    expect(line).not.toContain('\n')
    return line
  }
  throw new Error('expected a config error')
}

describe('loadConfig defaults and precedence', () => {
  it('uses the documented defaults', async () => {
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 8787,
      adminPort: 8788,
      dataDir: dir,
      logLevel: 'info',
      requestLogPerMinute: 300,
      chains: { mode: 'devnet', blockTime: 0.2, stateDumpSeconds: 2 },
      rateLimits: { perKeyPerMinute: 100, apiKeyCreationPerIpPerHour: 10, submissionsPerIpPerHour: 20 },
      trustProxy: false,
      cors: { origins: [] },
      feeRecipient: '0x000000000000000000000000000000000000fee1',
      wallet: { accountKind: 'simple', deployAhead: true },
      launches: { sharedDeployers: [] },
      passphraseSource: 'env',
    })
  })

  it('takes the shared deployers of launch authenticity from config.json', async () => {
    await writeFileConfig({ launches: { sharedDeployers: ['0x1111111111111111111111111111111111111111'] } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).launches).toEqual({ sharedDeployers: ['0x1111111111111111111111111111111111111111'] })
  })

  it('trusts only the listed proxies (addresses or CIDRs)', async () => {
    await writeFileConfig({ trustProxy: ['127.0.0.1', '10.0.0.0/8', 'fd00::/8'] })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'fd00::/8'])
  })

  it('allows the listed browser origins (CORS), exactly as browsers send them', async () => {
    await writeFileConfig({ cors: { origins: ['https://app.example', 'http://localhost:5173'] } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).cors).toEqual({ origins: ['https://app.example', 'http://localhost:5173'] })
  })

  it('resolves the default data dir ./data against cwd and DATA_DIR over it', async () => {
    expect((await loadConfig({ env: PASS, cwd: dir })).dataDir).toBe(join(dir, 'data'))
    expect((await loadConfig({ env: { ...PASS, DATA_DIR: 'other' }, cwd: dir })).dataDir).toBe(join(dir, 'other'))
    expect((await loadConfig({ flags: { dataDir: 'flagged' }, env: { ...PASS, DATA_DIR: 'other' }, cwd: dir })).dataDir).toBe(join(dir, 'flagged'))
  })

  it('flag > env > file > default for port and host', async () => {
    await writeFileConfig({ port: 9000, host: '0.0.0.0', rateLimits: { perKeyPerMinute: 5000 } })
    const fileOnly = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    expect(fileOnly).toMatchObject({ port: 9000, adminPort: 9001, host: '0.0.0.0', rateLimits: { perKeyPerMinute: 5000, apiKeyCreationPerIpPerHour: 10 } })
    const envOverFile = await loadConfig({ flags: { dataDir: dir }, env: { ...PASS, PORT: '9100', HOST: '127.0.0.2' } })
    expect(envOverFile).toMatchObject({ port: 9100, host: '127.0.0.2' })
    const flagOverEnv = await loadConfig({ flags: { dataDir: dir, port: '9200', host: 'localhost' }, env: { ...PASS, PORT: '9100', HOST: '127.0.0.2' } })
    expect(flagOverEnv).toMatchObject({ port: 9200, adminPort: 9201, host: 'localhost' })
  })

  it('reads rpc chains with Base address defaults and the SimpleAccount default', async () => {
    const secondAddresses = FAKE_ADDRESSES
    await writeFileConfig({
      chains: {
        mode: 'rpc',
        base: {
          rpcUrl: 'https://base.example',
          wsUrl: 'wss://base.example/',
          addresses: {
            positionManager: secondAddresses.positionManager,
            accountFactory: secondAddresses.accountFactory,
            ethUsdPool: secondAddresses.ethUsdPool,
          },
        },
        second_chain: { chainId: 7777, rpcUrl: 'http://second.example', wsUrl: 'wss://second.example', addresses: secondAddresses },
      },
      feeRecipient: '0x1111111111111111111111111111111111111111',
    })
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    expect(config.wallet).toEqual({
      accountKind: 'simple',
      deployAhead: true,
      bundlerLowEth: '0.01',
      priorityFee: { maxEthPerTx: '0.005', launchMultiplier: 3, launchBlocks: 25 },
      // In rpc mode one sender account unless the operator funds more (wallet.senderAccounts).
      senderAccounts: 1,
    })
    expect(config.chains.mode).toBe('rpc')
    if (config.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(config.chains.base.chainId).toBe(8453)
    expect(config.chains.base.addresses.stablecoin).toBe('0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913')
    // EIP-7825's per-transaction gas cap by default, and handed on to the chain the service runs on.
    expect(config.chains.base.txGasCap).toBe(16_777_216)
    expect(rpcChainConfigs(config.chains).base.txGasCap).toBe(16_777_216n)
    expect(config.chains.base.addresses.positionManager).toBe(secondAddresses.positionManager)
    expect(externalBundlerUrls(config.chains)).toEqual({})
    // Provider URLs may embed an API key: the printable view keeps only scheme and host.
    const printable = describeConfig(config)
    if (printable.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(printable.chains.base).toMatchObject({ rpcUrl: 'https://base.example', wsUrl: 'wss://base.example' })
    expect(config.chains.second_chain?.addresses.weth).toBe(secondAddresses.weth)
  })

  it('takes an rpc config with the second chain left out (disabled) and only Base RPC URLs (every address defaulted)', async () => {
    await writeFileConfig({
      chains: { mode: 'rpc', base: { rpcUrl: 'https://base.example', wsUrl: 'wss://base.example' } },
      feeRecipient: '0x1111111111111111111111111111111111111111',
    })
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    if (config.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(config.chains.second_chain).toBeUndefined()
    expect(config.chains.base.addresses).toEqual(BASE_DEFAULT_ADDRESSES)
    const chains = rpcChainConfigs(config.chains)
    expect(enabledChainKeys(chains)).toEqual(['base'])
    expect(chains.second_chain).toMatchObject({ key: 'second_chain', disabled: true, rpcUrl: 'http://disabled-chain.invalid' })
    expect(describeConfig(config).chains).not.toHaveProperty('second_chain')
  })

  it('generates a devnet passphrase once, mode 0600, and reuses it', async () => {
    const first = await loadConfig({ flags: { dataDir: dir }, env: {} })
    expect(first.passphraseSource).toBe('devnet-file')
    expect(first.passphrase.length).toBeGreaterThanOrEqual(32)
    const info = await stat(join(dir, 'secrets', 'passphrase'))
    expect(info.mode & 0o777).toBe(0o600)
    const second = await loadConfig({ flags: { dataDir: dir }, env: {} })
    expect(second.passphrase).toBe(first.passphrase)
    expect((await readFile(join(dir, 'secrets', 'passphrase'), 'utf8')).trim()).toBe(first.passphrase)
  })

  it('accepts a fractional block time in seconds (200 ms as Base) and whole seconds as before', async () => {
    await writeFileConfig({ chains: { mode: 'devnet', blockTime: 0.2 } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).chains).toEqual({ mode: 'devnet', blockTime: 0.2, stateDumpSeconds: 2 })
    await writeFileConfig({ chains: { mode: 'devnet', blockTime: 2 } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).chains).toEqual({ mode: 'devnet', blockTime: 2, stateDumpSeconds: 2 })
  })

  it("accepts the devnet's state dump interval in seconds, or none but at a graceful stop", async () => {
    await writeFileConfig({ chains: { mode: 'devnet', stateDumpSeconds: 30 } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).chains).toEqual({ mode: 'devnet', blockTime: 0.2, stateDumpSeconds: 30 })
    await writeFileConfig({ chains: { mode: 'devnet', stateDumpSeconds: 'on_stop' } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).chains).toEqual({ mode: 'devnet', blockTime: 0.2, stateDumpSeconds: 'on_stop' })
  })

  it('accepts manual and auto mining on devnet', async () => {
    await writeFileConfig({ chains: { mode: 'devnet', blockTime: 'manual' } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).chains).toEqual({ mode: 'devnet', blockTime: 'manual', stateDumpSeconds: 2 })
  })

  it('never includes the passphrase in the printable view', async () => {
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    expect(JSON.stringify(describeConfig(config))).not.toContain(PASS.PREBUY_PASSPHRASE)
  })
})

describe('loadConfig rejects a bad config with one line naming the field', () => {
  const fileCases: Array<[string, unknown, string]> = [
    ['port out of range', { port: 70000 }, 'config error: port: expected an integer from 1 to 65535 (from config.json)'],
    ['port not a number', { port: 'abc' }, 'config error: port: expected an integer from 1 to 65535 (from config.json)'],
    ['port not an integer', { port: 80.5 }, 'config error: port: expected an integer from 1 to 65535 (from config.json)'],
    ['admin port', { adminPort: 0 }, 'config error: adminPort: expected an integer from 1 to 65535 (from config.json)'],
    ['admin port equal to port', { port: 9000, adminPort: 9000 }, 'config error: adminPort: must differ from port (from config.json)'],
    ['empty host', { host: '' }, 'config error: host: expected a host name or IP address (from config.json)'],
    ['log level', { logLevel: 'loud' }, 'config error: logLevel: expected one of fatal, error, warn, info, debug, trace, silent (from config.json)'],
    ['unknown field', { prot: 1 }, 'config error: prot: unknown field (from config.json)'],
    ['request log budget', { requestLogPerMinute: 0 }, 'config error: requestLogPerMinute: expected an integer from 1 to 1000000 (from config.json)'],
    ['dataDir in the file', { dataDir: '/x' }, 'config error: dataDir: cannot be set in config.json'],
    ['chain mode', { chains: { mode: 'mainnet' } }, "config error: chains.mode: expected mode 'devnet' or 'rpc' (from config.json)"],
    [
      'block time',
      { chains: { mode: 'devnet', blockTime: 0 } },
      "config error: chains.blockTime: expected seconds from 0.1 to 60 in whole milliseconds (e.g. 0.2 or 2), 'manual' or 'auto' (from config.json)",
    ],
    [
      'block time below 100 ms',
      { chains: { mode: 'devnet', blockTime: 0.05 } },
      "config error: chains.blockTime: expected seconds from 0.1 to 60 in whole milliseconds (e.g. 0.2 or 2), 'manual' or 'auto' (from config.json)",
    ],
    [
      'block time finer than a millisecond',
      { chains: { mode: 'devnet', blockTime: 0.2005 } },
      `config error: chains.blockTime: ${BLOCK_TIME_TEXT} (from config.json)`,
    ],
    ['block time as text', { chains: { mode: 'devnet', blockTime: '200ms' } }, `config error: chains.blockTime: ${BLOCK_TIME_TEXT} (from config.json)`],
    [
      'state dumps more often than a second',
      { chains: { mode: 'devnet', stateDumpSeconds: 0.5 } },
      "config error: chains.stateDumpSeconds: expected seconds from 1 to 86400 or 'on_stop' (from config.json)",
    ],
    [
      'state dumps never (a kill -9 would lose everything since the start)',
      { chains: { mode: 'devnet', stateDumpSeconds: 'never' } },
      "config error: chains.stateDumpSeconds: expected seconds from 1 to 86400 or 'on_stop' (from config.json)",
    ],
    ['unknown devnet field', { chains: { mode: 'devnet', blocktime: 1 } }, 'config error: chains.blocktime: unknown field (from config.json)'],
    ['rpc without chains', { chains: { mode: 'rpc' } }, 'config error: chains.base: required (from config.json)'],
    [
      'malformed base address (every one has a default, an explicit one must be valid)',
      { chains: { mode: 'rpc', base: { rpcUrl: 'http://x', wsUrl: 'ws://x', addresses: { positionManager: '0x12' } } } },
      'config error: chains.base.addresses.positionManager: expected a 0x-prefixed 20-byte hex address (from config.json)',
    ],
    [
      'an external bundler (wallets hold only the stablecoin: nothing would pay their gas)',
      {
        chains: { mode: 'rpc', base: { rpcUrl: 'http://x', wsUrl: 'ws://x', bundlerUrl: 'https://bundler.example', addresses: BASE_EXTRA } },
        feeRecipient: '0x1111111111111111111111111111111111111111',
      },
      'config error: chains.base.bundlerUrl: an external bundler is not supported yet: wallets hold only the stablecoin and could not pay their gas (no paymaster); remove it (from config.json)',
    ],
    [
      'tx gas cap below one swap bundle',
      { chains: { ...rpcChains().chains, base: { ...rpcChains().chains.base, txGasCap: 1_000_000 } } },
      'config error: chains.base.txGasCap: expected a gas amount from 2000000 to 1000000000 (EIP-7825 caps a transaction at 16777216) (from config.json)',
    ],
    [
      'rpc url scheme',
      { chains: { mode: 'rpc', base: { rpcUrl: 'ftp://x' } } },
      'config error: chains.base.rpcUrl: expected an http or https URL (from config.json)',
    ],
    [
      'bundler url scheme',
      { chains: { mode: 'rpc', base: { rpcUrl: 'http://x', wsUrl: 'ws://x', bundlerUrl: 'ws://b' } } },
      'config error: chains.base.bundlerUrl: expected an http or https URL (from config.json)',
    ],
    [
      'ws url scheme',
      { chains: { mode: 'rpc', base: { rpcUrl: 'http://x', wsUrl: 'http://x' } } },
      'config error: chains.base.wsUrl: expected an ws or wss URL (from config.json)',
    ],
    [
      'second chain address',
      {
        chains: {
          mode: 'rpc',
          base: { rpcUrl: 'http://x', wsUrl: 'ws://x', addresses: BASE_EXTRA },
          second_chain: { chainId: 5, rpcUrl: 'http://y', wsUrl: 'ws://y', addresses: { stablecoin: '0x12' } },
        },
      },
      'config error: chains.second_chain.addresses.stablecoin: expected a 0x-prefixed 20-byte hex address (from config.json)',
    ],
    [
      'rate limit',
      { rateLimits: { perKeyPerMinute: 0 } },
      'config error: rateLimits.perKeyPerMinute: expected an integer from 1 to 1000000 (from config.json)',
    ],
    ['trust any proxy', { trustProxy: true }, "config error: trustProxy: true would believe any client's X-Forwarded-For"],
    [
      'trust proxy not an address',
      { trustProxy: ['proxy.example'] },
      'config error: trustProxy.0: expected an IP address or a CIDR such as 10.0.0.0/8 (from config.json)',
    ],
    [
      'trust proxy bad prefix',
      { trustProxy: ['10.0.0.0/33'] },
      'config error: trustProxy.0: expected an IP address or a CIDR such as 10.0.0.0/8 (from config.json)',
    ],
    ['trust proxy empty list', { trustProxy: [] }, 'config error: trustProxy: expected false or a list of proxy addresses or CIDRs'],
    ['trust proxy every IPv4 address', { trustProxy: ['0.0.0.0/0'] }, 'config error: trustProxy: these ranges together trust every IPv4 address'],
    [
      'trust proxy IPv4 halves',
      { trustProxy: ['127.0.0.1', '0.0.0.0/1', '128.0.0.0/1'] },
      'config error: trustProxy: these ranges together trust every IPv4 address',
    ],
    ['trust proxy every IPv6 address', { trustProxy: ['::/0'] }, 'config error: trustProxy: these ranges together trust every IPv6 address'],
    ['trust proxy public IPv6', { trustProxy: ['2000::/4', '3000::/4'] }, 'config error: trustProxy: these ranges together trust every public IPv6 address'],
    ['cors every origin', { cors: { origins: ['*'] } }, 'config error: cors.origins.0: "*" would let every web page call the API with a key it holds'],
    [
      'cors origin with a path',
      { cors: { origins: ['https://app.example/'] } },
      'config error: cors.origins.0: expected an exact origin such as "https://app.example"',
    ],
    ['cors origin upper case', { cors: { origins: ['https://App.example'] } }, 'config error: cors.origins.0: expected an exact origin'],
    ['cors origin default port', { cors: { origins: ['https://app.example:443'] } }, 'config error: cors.origins.0: expected an exact origin'],
    ['cors origin not http', { cors: { origins: ['ftp://app.example'] } }, 'config error: cors.origins.0: expected an exact origin'],
    ['cors origins not a list', { cors: { origins: 'https://app.example' } }, 'config error: cors.origins: expected a list of origins'],
    ['fee recipient', { feeRecipient: 'me' }, 'config error: feeRecipient: expected a 0x-prefixed 20-byte hex address (from config.json)'],
    ['account kind', { wallet: { accountKind: 'safe' } }, "config error: wallet.accountKind: expected 'simple' or 'kernel' (from config.json)"],
    ['deploy ahead', { wallet: { deployAhead: 'yes' } }, 'config error: wallet.deployAhead: expected true or false (from config.json)'],
    ['bundler low mark', { wallet: { bundlerLowEth: 0.01 } }, 'config error: wallet.bundlerLowEth: expected a decimal amount as a string'],
    ['no sender account', { wallet: { senderAccounts: 0 } }, 'config error: wallet.senderAccounts: expected an integer from 1 to 32 (from config.json)'],
    ['too many sender accounts', { wallet: { senderAccounts: 33 } }, 'config error: wallet.senderAccounts: expected an integer from 1 to 32'],
    ['fractional sender accounts', { wallet: { senderAccounts: 2.5 } }, 'config error: wallet.senderAccounts: expected an integer from 1 to 32'],
    [
      'withdrawal minimum',
      { withdrawals: { minStablecoin: 0.5 } },
      'config error: withdrawals.minStablecoin: expected a decimal amount as a string, e.g. "0.5" (from config.json)',
    ],
    [
      'withdrawal rate',
      { withdrawals: { perKeyPerHour: 0 } },
      'config error: withdrawals.perKeyPerHour: expected an integer from 1 to 1000000 (from config.json)',
    ],
    [
      'shared deployer',
      { launches: { sharedDeployers: ['bankr'] } },
      'config error: launches.sharedDeployers.0: expected a 0x-prefixed 20-byte hex address (from config.json)',
    ],
    ['not JSON', '{ "port": ', 'config error: config.json: not valid JSON'],
    ['not an object', '[1]', 'config error: config.json: expected a JSON object'],
  ]
  for (const [name, content, expected] of fileCases) {
    it(`file: ${name}`, async () => {
      await writeFileConfig(content)
      expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toContain(expected)
    })
  }

  it('runs four sender accounts on the devnet by default, and as many as wallet.senderAccounts says', async () => {
    await writeFileConfig({})
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).wallet.senderAccounts).toBe(4)
    await writeFileConfig({ wallet: { senderAccounts: 7 } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).wallet.senderAccounts).toBe(7)
  })

  it('accepts kernel on the devnet and in rpc mode, where neither accountFactory nor positionManager is needed (SimpleAccount is the default)', async () => {
    await writeFileConfig({ wallet: { accountKind: 'kernel' } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).wallet.accountKind).toBe('kernel')
    const { chains, addresses } = rpcChains()
    // The second chain has no default addresses: its accountFactory (unused by Kernel wallets) and positionManager
    // (never called by the service) left out.
    const { accountFactory: _unused, positionManager: _notCalled, ...withoutFactory } = addresses
    const kernelChains = { ...chains, second_chain: { ...chains.second_chain, addresses: withoutFactory } }
    await writeFileConfig({ chains: kernelChains, feeRecipient: addresses.weth, wallet: { accountKind: 'kernel' } })
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    expect(config.wallet.accountKind).toBe('kernel')
    expect(config.chains.mode === 'rpc' && config.chains.second_chain?.addresses.accountFactory).toBeUndefined()
    expect(config.chains.mode === 'rpc' && config.chains.second_chain?.addresses.positionManager).toBeUndefined()
    // Without a factory, SimpleAccount (the default) is refused, naming the field.
    await writeFileConfig({ chains: kernelChains, feeRecipient: addresses.weth })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toBe(
      "config error: chains.second_chain.addresses.accountFactory: required with wallet.accountKind 'simple' (from config.json)",
    )
  })

  it('locks the chain named base to chain id 8453 in rpc mode', async () => {
    const { chains, addresses } = rpcChains()
    await writeFileConfig({ chains: { ...chains, base: { ...chains.base, chainId: 84532 } }, feeRecipient: addresses.weth })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toBe(
      'config error: chains.base.chainId: the chain named base is Base, chain id 8453 (from config.json)',
    )
  })

  it('normalises lower-case addresses to their checksum form and refuses a mixed-case one with a wrong checksum', async () => {
    const { chains } = rpcChains()
    const usdc = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
    const factory = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985'
    await writeFileConfig({
      chains: { ...chains, base: { ...chains.base, addresses: { ...BASE_EXTRA, stablecoin: usdc.toLowerCase(), accountFactory: factory.toLowerCase() } } },
      feeRecipient: '0x000000000000000000000000000000000000DEAD',
      launches: { sharedDeployers: [factory.toLowerCase()] },
    })
    const config = await loadConfig({ flags: { dataDir: dir }, env: PASS })
    if (config.chains.mode !== 'rpc') throw new Error('unreachable')
    expect(config.chains.base.addresses.stablecoin).toBe(usdc)
    expect(config.chains.base.addresses.accountFactory).toBe(factory)
    expect(config.feeRecipient).toBe('0x000000000000000000000000000000000000dEaD')
    expect(config.launches.sharedDeployers).toEqual([factory])

    // One character of the published address mistyped (B -> b keeps the hex, breaks the checksum).
    const typo = usdc.replace('54bdA', '54bda')
    await writeFileConfig({ chains: { ...chains, base: { ...chains.base, addresses: { ...BASE_EXTRA, stablecoin: typo } } }, feeRecipient: usdc })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toBe(
      'config error: chains.base.addresses.stablecoin: mixed-case address with a wrong EIP-55 checksum (a mistyped character?): paste it exactly as published, or all lower-case (from config.json)',
    )
    await writeFileConfig({ feeRecipient: typo })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toContain(
      'config error: feeRecipient: mixed-case address with a wrong EIP-55 checksum',
    )
  })

  it('rpc mode without a fee recipient', async () => {
    const { chains, addresses } = rpcChains()
    await writeFileConfig({ chains })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toBe(
      "config error: feeRecipient: required when chains.mode is 'rpc' (not set)",
    )
    await writeFileConfig({ chains, feeRecipient: addresses.weth })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: {} }))).toBe(
      "config error: PREBUY_PASSPHRASE: required when chains.mode is 'rpc' (from env PREBUY_PASSPHRASE)",
    )
  })

  it('takes the ZORA route pool on real Base, checked once: it must lead from ETH or WETH to ZORA with a static fee', async () => {
    const { chains, addresses } = rpcChains()
    const ZORA = '0x1111111111166b7FE7bd91427724B487980aFc69'
    const pool = {
      currency0: '0x0000000000000000000000000000000000000000',
      currency1: ZORA,
      fee: 3000,
      tickSpacing: 60,
      hooks: '0x0000000000000000000000000000000000000000',
    }
    await writeFileConfig({ chains, feeRecipient: addresses.weth, launches: { zoraEthPool: pool } })
    expect((await loadConfig({ flags: { dataDir: dir }, env: PASS })).launches).toEqual({ sharedDeployers: [], zoraEthPool: pool })
    const cases: Array<[unknown, string]> = [
      [
        { ...pool, currency1: '0x3333333333333333333333333333333333333333' },
        'launches.zoraEthPool: the route ends at 0x3333333333333333333333333333333333333333',
      ],
      [
        { ...pool, currency0: ZORA, currency1: '0x3333333333333333333333333333333333333333' },
        'launches.zoraEthPool: the first pool must pair native ETH or WETH',
      ],
      [{ ...pool, fee: 0x800000 }, 'launches.zoraEthPool.fee: a static fee in pips'],
    ]
    for (const [zoraEthPool, expected] of cases) {
      await writeFileConfig({ chains, feeRecipient: addresses.weth, launches: { zoraEthPool } })
      expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toContain(expected)
    }
    // The devnet deploys its own ZORA market: a configured one would be ignored, so it is refused.
    await writeFileConfig({ launches: { zoraEthPool: pool } })
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: PASS }))).toContain('launches.zoraEthPool: only for real chains')
  })

  it('names env and flag sources', async () => {
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: { ...PASS, PORT: 'eighty' } }))).toBe(
      'config error: port: expected an integer from 1 to 65535 (from env PORT)',
    )
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir, port: '0' }, env: { ...PASS, PORT: '80' } }))).toBe(
      'config error: port: expected an integer from 1 to 65535 (from --port)',
    )
    expect(await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: { ...PASS, HOST: '' } }))).toBe(
      'config error: host: expected a host name or IP address (from env HOST)',
    )
    expect(await configErrorOf(loadConfig({ flags: { dataDir: '' }, env: PASS }))).toBe('config error: dataDir: expected a directory path (from --data-dir)')
  })

  it('rejects a short passphrase without printing it', async () => {
    const line = await configErrorOf(loadConfig({ flags: { dataDir: dir }, env: { PREBUY_PASSPHRASE: 'sekrit' } }))
    expect(line).toBe('config error: PREBUY_PASSPHRASE: expected at least 8 characters (from env PREBUY_PASSPHRASE)')
    expect(line).not.toContain('sekrit')
  })
})
