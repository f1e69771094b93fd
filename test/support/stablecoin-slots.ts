import { type Address, encodeAbiParameters, type Hex, keccak256, numberToHex, pad } from 'viem'
import { JSON_RPC_TIMEOUT_MS } from '../../devnet/anvil/json-rpc.ts'

/**
 * The devnet stablecoin's storage layout (devnet/contracts/fixtures/TestStablecoin.sol, declaration order):
 * totalSupply at slot 0, balanceOf at slot 1, allowance at slot 2. Not the real USDC's (a FiatToken proxy): this is for
 * the devnet only, and callers check the result through balanceOf / allowance.
 */
const BALANCE_SLOT = 1n
const ALLOWANCE_SLOT = 2n

const mappingSlot = (key: Address | Hex, slot: bigint | Hex): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: typeof slot === 'bigint' ? 'uint256' : 'bytes32' }], [key as Address, slot as never]))

export const balanceSlot = (owner: Address): Hex => mappingSlot(owner, BALANCE_SLOT)
export const allowanceSlot = (owner: Address, spender: Address): Hex =>
  keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'bytes32' }], [spender, mappingSlot(owner, ALLOWANCE_SLOT)]))

export interface SlotHolder {
  owner: Address
  balance: bigint
  spender: Address
  allowance: bigint
}

/**
 * Gives many holders a stablecoin balance and an allowance at once with anvil_setStorageAt, in JSON-RPC batches of
 * `perRequest` calls: thousands of funded, approving wallets for a contract-level measurement without thousands of
 * mint and approve transactions (what a wallet does on chain to get there is tested elsewhere: batch-buyer.test.ts
 * funds and approves from real accounts). The total supply is not adjusted (nothing here reads it).
 */
export async function setStablecoinSlots(rpcUrl: string, stablecoin: Address, holders: readonly SlotHolder[], perRequest = 1_000): Promise<void> {
  const calls: Array<[Hex, Hex]> = []
  for (const h of holders) {
    calls.push([balanceSlot(h.owner), pad(numberToHex(h.balance), { size: 32 })])
    calls.push([allowanceSlot(h.owner, h.spender), pad(numberToHex(h.allowance), { size: 32 })])
  }
  for (let i = 0; i < calls.length; i += perRequest) {
    const body = calls
      .slice(i, i + perRequest)
      .map(([slot, value], k) => ({ jsonrpc: '2.0', id: i + k, method: 'anvil_setStorageAt', params: [stablecoin, slot, value] }))
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(JSON_RPC_TIMEOUT_MS),
    })
    const answers = (await response.json()) as Array<{ error?: { message: string } }>
    const failed = answers.find((a) => a.error)
    if (!response.ok || failed) throw new Error(`anvil_setStorageAt batch failed: ${failed?.error?.message ?? response.status}`)
  }
}
