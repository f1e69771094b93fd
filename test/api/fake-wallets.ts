import type { Address, Hash } from 'viem'
import { NATIVE_ETH_ADDRESS, type ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { BalanceEntry, TokenInfo, WalletService, WithdrawRequest, WithdrawResult } from '../../src/wallets/wallet-service.ts'

/**
 * In-memory stand-in for the WalletService port, for the API's unit level (inject and HTTP tests of routes).
 * End-to-end tests use the real wallet service on devnet chains.
 */
export interface FakeWallets extends WalletService {
  /** Stablecoin balance (atomic) per user index and chain. */
  setStable(userIndex: number, chain: ChainKey, atomic: bigint): void
  withdrawals: WithdrawRequest[]
  getBalancesCalls: number
  /** Calls of stablecoinBalances (the batch read of a project's buyers). */
  stablecoinBalancesCalls: number
  /** Delay of walletAddress in ms (provisioning takes time in the real service). */
  provisionDelayMs: number
  /** The next withdrawal throws this (the real service's refusals, as the HTTP layer must show them). */
  failNextWithdrawal: Error | undefined
  /** The next verifiedWalletAddress throws this (the chain derived another address, or could not be read). */
  failNextVerification: Error | undefined
}

export const FAKE_STABLE: Record<ChainKey, Address> = {
  base: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  second_chain: '0x1111111111111111111111111111111111111111',
}

export function createFakeWallets(): FakeWallets {
  const stable = new Map<string, bigint>()
  const fake: FakeWallets = {
    withdrawals: [],
    getBalancesCalls: 0,
    stablecoinBalancesCalls: 0,
    provisionDelayMs: 0,
    failNextWithdrawal: undefined,
    failNextVerification: undefined,
    setStable(userIndex, chain, atomic) {
      stable.set(`${userIndex}:${chain}`, atomic)
    },
    async walletAddress(userIndex) {
      if (fake.provisionDelayMs) await new Promise((resolve) => setTimeout(resolve, fake.provisionDelayMs))
      return `0x${(0xa000 + userIndex).toString(16).padStart(40, '0')}` as Address
    },
    async verifiedWalletAddress(userIndex) {
      const failure = fake.failNextVerification
      fake.failNextVerification = undefined
      if (failure) throw failure
      return fake.walletAddress(userIndex)
    },
    async getBalances(userIndex, indexed: Record<ChainKey, TokenInfo[]>) {
      fake.getBalancesCalls += 1
      const list = (chain: ChainKey): BalanceEntry[] => [
        { address: NATIVE_ETH_ADDRESS, symbol: 'ETH', name: 'Ether', decimals: 18, balance: '0' },
        { address: FAKE_STABLE[chain], symbol: 'USDC', name: 'USD Coin', decimals: 6, balance: (stable.get(`${userIndex}:${chain}`) ?? 0n).toString() },
        ...indexed[chain].map((token) => ({ ...token, balance: '5' })),
      ]
      return { base: list('base'), second_chain: list('second_chain') }
    },
    async stablecoinBalances(chain, userIndexes) {
      fake.stablecoinBalancesCalls += 1
      return new Map(userIndexes.map((i) => [i, stable.get(`${i}:${chain}`) ?? 0n]))
    },
    async withdraw(request): Promise<WithdrawResult> {
      const failure = fake.failNextWithdrawal
      fake.failNextWithdrawal = undefined
      if (failure) throw failure
      if (!/^0x[0-9a-fA-F]{40}$/.test(request.to)) throw new PrebuyError('invalid_address', 'withdrawAddress is not an address')
      if (request.amount !== 'max' && !/^\d+(\.\d+)?$/.test(request.amount)) throw new PrebuyError('invalid_amount', 'amount is not a decimal')
      fake.withdrawals.push(request)
      return {
        txHash: `0x${'ab'.repeat(32)}` as Hash,
        chain: request.chain,
        tokenAddress: request.tokenAddress as Address,
        to: request.to as Address,
        amount: request.amount === 'max' ? '42' : String(Math.round(Number(request.amount) * 1e6)),
      }
    },
    async submitUserOperations() {
      throw new Error('not used by the API')
    },
  }
  return fake
}
