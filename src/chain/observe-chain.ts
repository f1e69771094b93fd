import { BaseError, createPublicClient, getAddress, parseAbi, sliceHex, webSocket, type Address } from 'viem'
import { PROBE_CODE, type Answer, type ChainExpectation, type ChainObservation } from './chain-mismatch.ts'
import { rpcHttp } from './rpc-http.ts'

const ERC20_ABI = parseAbi(['function decimals() view returns (uint8)'])
const POOL_ABI = parseAbi(['function token0() view returns (address)', 'function token1() view returns (address)'])
const FACTORY_ABI = parseAbi(['function getAddress(address owner, uint256 salt) view returns (address)'])

/** Where the probe is placed by state override: an address nobody deploys to (its own code, for that one call only). */
const PROBE_ADDRESS: Address = '0x00000000000000000000000000000000000c0de1'

const TIMEOUT_MS = 20_000

/**
 * Reads, over the chain's RPC URL, everything chainMismatch compares: the chain id, the code at every contract, the
 * stablecoin's decimals, the ETH/USD pool's tokens, the factory's own wallet derivation, and how the node treats the
 * eth_calls and batches the daemon sends. Every read is answered or carries its error: nothing here throws.
 */
export async function observeChain(urls: { rpcUrl: string; wsUrl: string }, expected: ChainExpectation): Promise<ChainObservation> {
  const { rpcUrl, wsUrl } = urls
  const client = createPublicClient({ transport: rpcHttp(rpcUrl, { retryCount: 1, timeout: TIMEOUT_MS }) })
  const answer = async <T>(read: () => Promise<T>): Promise<Answer<T>> => {
    try {
      return { ok: true, value: await read() }
    } catch (error) {
      return { ok: false, error: oneLine(error, [rpcUrl, wsUrl]) }
    }
  }
  const probe = (extra: object) =>
    client
      .call({ to: PROBE_ADDRESS, gas: expected.node.callGas, stateOverride: [{ address: PROBE_ADDRESS, code: PROBE_CODE }], ...extra })
      .then((result) => result.data ?? '0x')

  const [chainId, wsChainId, hasCode, stablecoinDecimals, ethUsdPoolTokens, derivedAccount, gasProbe, blockProbe, batchAnswers] = await Promise.all([
    answer(() => client.getChainId()),
    answer(() => wsChainIdOf(wsUrl)),
    Promise.all(expected.contracts.map((contract) => answer(async () => ((await client.getCode({ address: contract.address })) ?? '0x') !== '0x'))),
    answer(() => client.readContract({ address: expected.stablecoin, abi: ERC20_ABI, functionName: 'decimals' })),
    answer(() =>
      Promise.all([
        client.readContract({ address: expected.ethUsdPool, abi: POOL_ABI, functionName: 'token0' }),
        client.readContract({ address: expected.ethUsdPool, abi: POOL_ABI, functionName: 'token1' }),
      ] as const),
    ),
    // No factory configured (it is optional without SimpleAccount wallets): nothing to derive.
    expected.account === undefined
      ? undefined
      : answer(async () => {
          const { factory, owner, derivation } = expected.account!
          if (!derivation) return client.readContract({ address: factory, abi: FACTORY_ABI, functionName: 'getAddress', args: [owner, 0n] })
          // A simulated deployment: the factory answers the address it would deploy the wallet to (one address word).
          const { data } = await client.call({ to: factory, data: derivation.call })
          if (data === undefined || data.length < 66) throw new Error(`it returned ${data ?? 'nothing'}`)
          return getAddress(sliceHex(data, 12, 32))
        }),
    answer(() => probe({})),
    answer(async () => {
      const latest = await client.getBlock({ blockTag: 'latest' })
      // The block the simulation of a launch bundle asks for: the next one, a second later.
      const asked = { number: latest.number + 1n, time: latest.timestamp + 1n }
      return { asked, data: await probe({ blockOverrides: { number: asked.number, time: asked.time } }) }
    }),
    answer(() => batchOf(rpcUrl, expected.node.batchSize)),
  ])
  return { chainId, wsChainId, hasCode, stablecoinDecimals, ethUsdPoolTokens, derivedAccount, gasProbe, blockProbe, batchAnswers }
}

/** eth_chainId over a WebSocket of its own, closed again whatever the answer. */
async function wsChainIdOf(wsUrl: string): Promise<number> {
  const transport = webSocket(wsUrl, { retryCount: 0, timeout: TIMEOUT_MS, reconnect: false })
  const client = createPublicClient({ transport })
  try {
    return await client.getChainId()
  } finally {
    await client.transport
      .getRpcClient()
      .then((socket) => socket.close())
      .catch(() => undefined)
  }
}

/** Sends one JSON-RPC batch of `size` eth_chainId requests; resolves with the number of answers, or throws the node's error. */
async function batchOf(rpcUrl: string, size: number): Promise<number> {
  const body = Array.from({ length: size }, (_, id) => ({ jsonrpc: '2.0', id, method: 'eth_chainId', params: [] }))
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(TIMEOUT_MS),
  })
  const text = await response.text()
  let answers: unknown
  try {
    answers = JSON.parse(text)
  } catch {
    throw new Error(`HTTP ${response.status}: ${text.slice(0, 120)}`)
  }
  if (!Array.isArray(answers)) {
    const error = (answers as { error?: { message?: unknown } } | null)?.error?.message
    throw new Error(typeof error === 'string' ? error : `HTTP ${response.status}: not a batch answer`)
  }
  const failed = answers.find((item: { error?: { message?: unknown } }) => item?.error !== undefined) as { error: { message?: unknown } } | undefined
  if (failed) throw new Error(String(failed.error.message ?? 'an error answer'))
  return answers.length
}

/** An error as one short line, without the URLs (provider URLs carry API keys). */
function oneLine(error: unknown, urls: readonly string[]): string {
  const text =
    error instanceof BaseError ? [error.shortMessage.replace(/\.$/, ''), error.details].filter(Boolean).join(': ') : String((error as Error)?.message ?? error)
  return urls.reduce((line, url) => line.replaceAll(url, '<url>'), text.split('\n')[0] ?? '').slice(0, 300)
}
