import { erc20Abi, getAddress, multicall3Abi, type Address, type PublicClient } from 'viem'
import type { ChainConfig } from '../chain/chain-keys.ts'
import { PrebuyError } from '../common/errors.ts'
import { withDeadline } from '../common/with-deadline.ts'
import { metadataCalls, NATIVE_ETH, tokenInfoFrom } from './token-metadata.ts'
import type { BalanceEntry, TokenInfo } from './wallet-service.ts'

/** Stablecoin and WETH metadata, read once per chain (in the first balance multicall) and kept. */
export interface KnownTokens {
  stablecoin: TokenInfo
  weth: TokenInfo
}

export interface ChainBalanceReader {
  /** One Multicall3 aggregate3 call: ETH, stablecoin, WETH and every indexed token (plus metadata the first time). */
  balances(wallet: Address, indexed: readonly TokenInfo[]): Promise<BalanceEntry[]>
  knownTokens(): Promise<KnownTokens>
}

type Result = { status: 'success'; result: unknown } | { status: 'failure'; error: Error }

/** How long a balance read may take before the caller is told the chain is unavailable. */
export const READ_DEADLINE_MS = 5_000

export function createChainBalanceReader(chain: ChainConfig, client: PublicClient, options: { deadlineMs?: number } = {}): ChainBalanceReader {
  const { stablecoin, weth, multicall3 } = chain.addresses
  let known: KnownTokens | undefined

  const multicall = async (contracts: readonly unknown[]): Promise<Result[]> => {
    // batchSize 0: never split into several eth_calls, whatever the number of tokens.
    const read = client.multicall({ contracts: contracts as never, allowFailure: true, multicallAddress: multicall3, batchSize: 0 }) as Promise<Result[]>
    try {
      // A node that stopped answering must not hold an API request for the transport's retries (~30 s): a clear 503.
      return await withDeadline(read, options.deadlineMs ?? READ_DEADLINE_MS, () => new Error(`no answer from ${chain.key} in time`))
    } catch (error) {
      throw new PrebuyError('chain_unavailable', `Balances on ${chain.key} could not be read.`, { cause: error, details: { retryAfterSeconds: 5 } })
    }
  }

  const rememberKnown = (results: readonly Result[]): KnownTokens => {
    const stable = tokenInfoFrom(stablecoin, results.slice(0, 3))
    const wrapped = tokenInfoFrom(weth, results.slice(3, 6))
    if (!stable || !wrapped) throw new PrebuyError('chain_unavailable', `Token metadata on ${chain.key} could not be read.`)
    known = { stablecoin: stable, weth: wrapped }
    return known
  }

  return {
    async knownTokens() {
      return known ?? rememberKnown(await multicall([...metadataCalls(stablecoin), ...metadataCalls(weth)]))
    },
    async balances(wallet, indexed) {
      const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()
      // The stablecoin and WETH have fixed places in the listing; indexed duplicates (of them or of each other) are dropped.
      const seen = new Set<string>()
      const others = indexed.filter((token) => {
        const key = token.address.toLowerCase()
        if (same(key, stablecoin) || same(key, weth) || seen.has(key)) return false
        seen.add(key)
        return true
      })
      const metadata = known ? [] : [...metadataCalls(stablecoin), ...metadataCalls(weth)]
      const balanceOf = (token: Address) => ({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [wallet] }) as const
      const results = await multicall([
        ...metadata,
        { address: multicall3, abi: multicall3Abi, functionName: 'getEthBalance', args: [wallet] },
        balanceOf(stablecoin),
        balanceOf(weth),
        ...others.map((token) => balanceOf(getAddress(token.address))),
      ])
      const tokens = known ?? rememberKnown(results)
      const balancesStart = metadata.length
      // A token whose balanceOf reverts (a broken or hostile contract) reads as zero rather than hiding every balance.
      const amount = (index: number): bigint => {
        const result = results[balancesStart + index]
        return result?.status === 'success' ? (result.result as bigint) : 0n
      }
      const entries: BalanceEntry[] = [
        { ...NATIVE_ETH, balance: amount(0).toString() },
        { ...tokens.stablecoin, balance: amount(1).toString() },
      ]
      others.forEach((token, index) => {
        const balance = amount(3 + index)
        if (balance > 0n) entries.push({ ...token, address: getAddress(token.address), balance: balance.toString() })
      })
      const wethBalance = amount(2)
      if (wethBalance > 0n) entries.push({ ...tokens.weth, balance: wethBalance.toString() })
      return entries
    },
  }
}
