import { Writable } from 'node:stream'
import { createPublicClient, http, numberToHex, parseEther, type Address, type PublicClient } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startBundlerWatch } from '../../daemon/health/bundler-watch.ts'
import { jsonRpc } from '../../devnet/anvil/json-rpc.ts'
import { startAnvil, type AnvilInstance } from '../../devnet/anvil/start-anvil.ts'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { createL1DataFeeReader, GAS_PRICE_ORACLE, sampleBundleTransaction } from '../../src/chain/l1-data-fee.ts'
import { createLogger } from '../../src/common/logger.ts'

/**
 * The L1 data fee on a real anvil: without a GasPriceOracle (the devnet) it is 0; with a devnet imitation placed at
 * the predeploy address (code that answers every call with one fee) it is read, and the bundler watch counts it in
 * its low mark.
 */

const FEE = parseEther('0.003')
/** PUSH32 FEE, PUSH1 0, MSTORE, PUSH1 32, PUSH1 0, RETURN: every call answers FEE (what getL1Fee returns on Base). */
const oracleImitation = () => `0x7f${numberToHex(FEE, { size: 32 }).slice(2)}60005260206000f3` as const
const BUNDLER: Address = '0x00000000000000000000000000000000000b0b01'

let anvil: AnvilInstance
let client: PublicClient
beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337, name: 'l1-data-fee' })
  client = createPublicClient({ transport: http(anvil.rpcUrl) })
}, 60_000)
afterAll(async () => {
  await anvil?.stop()
})

const sample = () => sampleBundleTransaction(31337, '0x0000000071727De22E5E9d8BAf0edAc6f37da032', 10)

describe('L1 data fee', () => {
  it('is 0 where the chain has no GasPriceOracle, and the oracle answer where it has one', async () => {
    expect(await createL1DataFeeReader(client).feeOf(sample())).toBe(0n)
    await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, oracleImitation()])
    try {
      expect(await createL1DataFeeReader(client).feeOf(sample())).toBe(FEE)
    } finally {
      await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, '0x'])
    }
  })

  it('sample transactions grow with the operations they stand for', () => {
    expect((sampleBundleTransaction(8453, BUNDLER, 100).length - 2) / 2).toBeGreaterThan(100 * 1_200)
    expect(sampleBundleTransaction(8453, BUNDLER, 1).length).toBeLessThan(sampleBundleTransaction(8453, BUNDLER, 2).length)
  })

  it("counts in the bundler watch's low mark", async () => {
    const lines: string[] = []
    const logger = createLogger({
      destination: new Writable({
        write(chunk, _encoding, callback) {
          lines.push(String(chunk))
          callback()
        },
      }),
    })
    const chain = { chainId: 31337, rpcUrl: anvil.rpcUrl, addresses: { entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032' } } as unknown as ChainConfig
    const chains = { base: { ...chain, key: 'base' }, second_chain: { ...chain, key: 'second_chain' } } as Record<ChainKey, ChainConfig>
    // Above the 0.01 mark, under the mark plus the L1 data fee of a launch bundle.
    await jsonRpc(anvil.rpcUrl, 'anvil_setBalance', [BUNDLER, numberToHex(parseEther('0.012'))])
    const watch = startBundlerWatch({ chains, bundlerAddress: () => BUNDLER, lowEth: '0.01', logger, intervalMs: 3_600_000 })
    try {
      expect((await watch.check()).base?.level).toBe('ok')
      await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, oracleImitation()])
      expect((await watch.check()).base?.level).toBe('low')
      const warning = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((line) => line.chain === 'base' && line.msg?.toString().startsWith('bundler ETH is low'))
      // Both chains of this test are the same node: each warns, in either order; base's line is the one checked.
      expect(warning).toMatchObject({ chain: 'base', l1DataFeeEth: '0.003', lowEth: '0.01' })
    } finally {
      watch.stop()
      await jsonRpc(anvil.rpcUrl, 'anvil_setCode', [GAS_PRICE_ORACLE, '0x'])
    }
  })

  it('watches every sender account on its own: one low account is warned about and shown, the others stay ok', async () => {
    const lines: string[] = []
    const logger = createLogger({
      destination: new Writable({
        write(chunk, _encoding, callback) {
          lines.push(String(chunk))
          callback()
        },
      }),
    })
    const chain = { chainId: 31337, rpcUrl: anvil.rpcUrl, addresses: { entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032' } } as unknown as ChainConfig
    const chains = { base: { ...chain, key: 'base' }, second_chain: { ...chain, key: 'second_chain' } } as Record<ChainKey, ChainConfig>
    const SENDER: Address = '0x00000000000000000000000000000000000b0b02'
    await jsonRpc(anvil.rpcUrl, 'anvil_setBalance', [BUNDLER, numberToHex(parseEther('1'))])
    await jsonRpc(anvil.rpcUrl, 'anvil_setBalance', [SENDER, numberToHex(parseEther('0.001'))])
    const watch = startBundlerWatch({
      chains,
      bundlerAddress: () => BUNDLER,
      senderAddresses: () => [BUNDLER, SENDER],
      lowEth: '0.01',
      logger,
      intervalMs: 3_600_000,
    })
    const parsed = () => lines.map((line) => JSON.parse(line) as Record<string, unknown>).filter((line) => line.chain === 'base')
    try {
      const base = (await watch.check()).base!
      // The chain's own figure stays the bundler's; each sender account has its own.
      expect(base).toMatchObject({ address: BUNDLER, balanceEth: '1', level: 'ok' })
      expect(base.senders).toEqual([
        { address: BUNDLER, balanceEth: '1', level: 'ok' },
        { address: SENDER, balanceEth: '0.001', level: 'low' },
      ])
      expect(
        parsed()
          .filter((line) => line.msg === 'bundler ETH is low: launch buys may fail to send; fund it')
          .map((line) => line.bundler),
      ).toContain(SENDER)
      expect(parsed().some((line) => line.bundler === BUNDLER && String(line.msg).startsWith('bundler ETH is low'))).toBe(false)
      await jsonRpc(anvil.rpcUrl, 'anvil_setBalance', [SENDER, numberToHex(parseEther('0.5'))])
      expect((await watch.check()).base?.senders[1]?.level).toBe('ok')
      expect(parsed().some((line) => line.bundler === SENDER && line.msg === 'bundler ETH is back above the low mark')).toBe(true)
    } finally {
      watch.stop()
    }
  })
})
