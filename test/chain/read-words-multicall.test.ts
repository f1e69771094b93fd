import { type Address, createPublicClient, erc20Abi, http, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { type AnvilInstance, startAnvil } from '../../devnet/anvil/start-anvil.ts'
import { loadArtifact } from '../../devnet/chain/artifacts.ts'
import { MULTICALL3_ADDRESS } from '../../src/chain/canonical-addresses.ts'
import { createReadClient } from '../../src/chain/clients.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { readStablecoinAllowances } from '../../src/chain/read-stablecoin-allowances.ts'
import { readStablecoinBalances } from '../../src/chain/read-stablecoin-balances.ts'
import { ALLOWANCE, addressCalls, aggregate3Data, readWords, WORDS_PER_CALL } from '../../src/chain/read-words-multicall.ts'
import { EIP_7825_TX_GAS_CAP } from '../../src/chain/tx-gas-cap.ts'
import { setStablecoinSlots } from '../support/stablecoin-slots.ts'

/**
 * The hand-written Multicall3 reads (read-words-multicall.ts) on a real anvil with the real Multicall3 and the devnet
 * stablecoin: more wallets than one aggregate3 call takes, at the latest block and at an earlier one, through the
 * daemon's read client (batched, with the latest-state fallback) and a plain one; the answers are viem's multicall's.
 */
const STABLECOIN: Address = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
const SPENDER: Address = '0x00000000000000000000000000000000000b7b01'
const wallet = (i: number) => `0x${(0xa11ce000 + i).toString(16).padStart(40, '0')}` as Address
const WALLETS = Array.from({ length: 1_234 }, (_, i) => wallet(i))

let anvil: AnvilInstance
let plain: PublicClient
let daemonReads: PublicClient
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337, name: 'read-words-multicall' })
  await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [MULTICALL3_ADDRESS, loadArtifact('Multicall3').deployedBytecode])
  await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [STABLECOIN, loadArtifact('TestStablecoin').deployedBytecode])
  plain = createPublicClient({ transport: http(anvil.rpcUrl) })
  daemonReads = createReadClient({ chainId: 31337, rpcUrl: anvil.rpcUrl, addresses: { multicall3: MULTICALL3_ADDRESS } } as unknown as ChainConfig)
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
})

describe('Multicall3 reads by hand, on anvil', () => {
  it("reads 1,234 wallets' balances and allowances (three aggregate3 calls), now and at an earlier block, as viem's multicall does", async () => {
    await setStablecoinSlots(
      anvil.rpcUrl,
      STABLECOIN,
      WALLETS.map((owner, i) => ({ owner, balance: BigInt(i) * 1_000_003n, spender: SPENDER, allowance: BigInt(i % 7) })),
    )
    await jsonRpc(anvil.rpcUrl, 'evm_mine')
    const before = await plain.getBlockNumber()
    // anvil_setStorageAt edits the head's state: a block past `before` first, so that `before` keeps its own.
    await jsonRpc(anvil.rpcUrl, 'evm_mine')
    // A later block where every balance moved.
    await setStablecoinSlots(
      anvil.rpcUrl,
      STABLECOIN,
      WALLETS.map((owner, i) => ({ owner, balance: BigInt(i) + 1n, spender: SPENDER, allowance: 9n })),
    )
    await jsonRpc(anvil.rpcUrl, 'evm_mine')

    for (const client of [plain, daemonReads]) {
      const now = await readStablecoinBalances(client, MULTICALL3_ADDRESS, STABLECOIN, WALLETS)
      const then = await readStablecoinBalances(client, MULTICALL3_ADDRESS, STABLECOIN, WALLETS, before)
      const allowedThen = await readStablecoinAllowances(client, MULTICALL3_ADDRESS, STABLECOIN, SPENDER, WALLETS, before)
      const allowedNow = await readStablecoinAllowances(client, MULTICALL3_ADDRESS, STABLECOIN, SPENDER, WALLETS)
      WALLETS.forEach((w, i) => {
        expect(now.get(w.toLowerCase())).toBe(BigInt(i) + 1n)
        expect(then.get(w.toLowerCase())).toBe(BigInt(i) * 1_000_003n)
        expect(allowedThen.get(w.toLowerCase())).toBe(BigInt(i % 7))
        expect(allowedNow.get(w.toLowerCase())).toBe(9n)
      })
    }
    // viem's own multicall, the reference, for a sample.
    const sample = WALLETS.filter((_, i) => i % 97 === 0)
    const viem = await plain.multicall({
      multicallAddress: MULTICALL3_ADDRESS,
      allowFailure: false,
      blockNumber: before,
      contracts: sample.map((w) => ({ address: STABLECOIN, abi: erc20Abi, functionName: 'balanceOf' as const, args: [w] as const })),
    })
    const ours = await readStablecoinBalances(plain, MULTICALL3_ADDRESS, STABLECOIN, sample, before)
    expect(sample.map((w) => ours.get(w.toLowerCase()))).toEqual(viem)
  })

  it("a full aggregate3 call (WORDS_PER_CALL allowances, every slot cold) stays far under EIP-7825's 2^24 gas", async () => {
    const cold = Array.from({ length: WORDS_PER_CALL }, (_, i) => `0x${(0xc01d0000 + i).toString(16).padStart(40, '0')}` as Address)
    const gas = await plain.estimateGas({ to: MULTICALL3_ADDRESS, data: aggregate3Data(STABLECOIN, addressCalls(ALLOWANCE, cold, SPENDER)) })
    // Half the cap: room for the real USDC's proxy, a few thousand gas more per call.
    expect(gas).toBeLessThan(EIP_7825_TX_GAS_CAP / 2n)
  })

  it('refuses a read whose calls do not each answer one word (a target without code answers nothing)', async () => {
    const nothing: Address = '0x00000000000000000000000000000000000dead1'
    await expect(readStablecoinBalances(plain, MULTICALL3_ADDRESS, nothing, WALLETS.slice(0, 3))).rejects.toThrow(/0 bytes, not one word/)
    // A call that reverts makes aggregate3 revert (none may fail): the read fails, as viem's with allowFailure false.
    await expect(readWords(plain, MULTICALL3_ADDRESS, STABLECOIN, ['0xdeadbeef'])).rejects.toThrow()
  })
})
