import { encodeAbiParameters, encodeErrorResult, type Hash, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import { PrebuyError } from '../../../../src/common/errors.ts'
import { GAS_METER_ADDRESS, GAS_METER_CODE } from '../../../../src/wallets/bundler/gas-meter.ts'
import { createBundleSimulator, failedOpOf } from '../../../../src/wallets/bundler/simulate-bundle.ts'
import { BUNDLER, fakeContext, idsInMeterCall, item } from './bundle-fixtures.ts'

const meterOutput = (ok: boolean, gasUsed: bigint, returnData: Hex = '0x'): Hex =>
  encodeAbiParameters([{ type: 'bool' }, { type: 'uint256' }, { type: 'bytes' }], [ok, gasUsed, returnData])
const failedOp = (index: number, reason: string): Hex => encodeErrorResult({ abi: entryPoint07Abi, errorName: 'FailedOp', args: [BigInt(index), reason] })

/**
 * A simulator over a client whose gas-meter call is answered by `answer` from the ids of the items it carries; every
 * call's ids are recorded.
 */
function simulatorAnswering(answer: (ids: string[]) => Hex) {
  const calls: { ids: string[]; gas: bigint | undefined; to: string | undefined }[] = []
  const call = async (request: { data?: Hex; gas?: bigint; to?: string | null }) => {
    const ids = idsInMeterCall(request.data ?? '0x')
    calls.push({ ids, gas: request.gas, to: request.to ?? undefined })
    return { data: answer(ids) }
  }
  return { calls, simulator: createBundleSimulator(fakeContext({ call } as never)) }
}

describe('bundle simulation', () => {
  it('measures an accepted bundle in one gas-meter call placed by state override', async () => {
    let seen: Record<string, unknown> | undefined
    const call = async (request: Record<string, unknown>) => {
      seen = request
      return { data: meterOutput(true, 123_456n) }
    }
    const simulator = createBundleSimulator(fakeContext({ call } as never))
    const items = [item(0), item(1)]
    const refused = new Map<Hash, string>()
    expect(await simulator.simulate(items, refused, 30_000_000n)).toEqual({ items, gasUsed: 123_456n })
    expect(refused.size).toBe(0)
    expect(seen).toMatchObject({
      account: BUNDLER,
      to: GAS_METER_ADDRESS,
      gas: 30_000_000n,
      stateOverride: [{ address: GAS_METER_ADDRESS, code: GAS_METER_CODE }],
    })
  })

  it("runs in the landing block's context (number and time as block overrides); a node that refuses them is asked without, from then on", async () => {
    const seen: Array<Record<string, unknown>> = []
    let refuses = false
    const call = async (request: Record<string, unknown>) => {
      seen.push(request)
      if (refuses && request.blockOverrides) throw Object.assign(new Error('invalid params: too many arguments'), { code: -32602 })
      return { data: meterOutput(true, 1_000n) }
    }
    const simulator = createBundleSimulator(fakeContext({ call } as never))
    const landsIn = { number: 43n, timestamp: 1_700_000_086n }
    await simulator.simulate([item(0)], new Map(), 30_000_000n, landsIn)
    expect(seen[0]?.blockOverrides).toEqual({ number: 43n, time: 1_700_000_086n })
    // Without a landing block: the latest block's context.
    await simulator.simulate([item(0)], new Map(), 30_000_000n)
    expect(seen[1]?.blockOverrides).toBeUndefined()

    refuses = true
    expect((await simulator.simulate([item(0)], new Map(), 30_000_000n, landsIn)).gasUsed).toBe(1_000n)
    expect(seen.slice(2).map((r) => r.blockOverrides !== undefined)).toEqual([true, false])
    await simulator.simulate([item(0)], new Map(), 30_000_000n, landsIn)
    expect(seen.slice(4).map((r) => r.blockOverrides !== undefined)).toEqual([false])
  })

  it('a failure with block overrides that is not about them fails the simulation as before', async () => {
    const call = async () => {
      throw new Error('connection reset')
    }
    const simulator = createBundleSimulator(fakeContext({ call } as never))
    await expect(simulator.simulate([item(0)], new Map(), 30_000_000n, { number: 2n, timestamp: 4n })).rejects.toMatchObject({
      code: 'bundle_simulation_failed',
    })
  })

  it('drops each operation the EntryPoint refuses in validation and measures the rest again', async () => {
    const { calls, simulator } = simulatorAnswering((ids) =>
      ids.includes('op-1') ? meterOutput(false, 0n, failedOp(ids.indexOf('op-1'), 'AA25 invalid account nonce')) : meterOutput(true, 70_000n),
    )
    const refused = new Map<Hash, string>()
    const result = await simulator.simulate([item(0), item(1), item(2)], refused, 1_000_000n)
    expect(result.items.map((i) => i.id)).toEqual(['op-0', 'op-2'])
    expect(result.gasUsed).toBe(70_000n)
    expect([...refused]).toEqual([[item(1).userOpHash, 'AA25 invalid account nonce']])
    expect(calls.map((c) => c.ids)).toEqual([
      ['op-0', 'op-1', 'op-2'],
      ['op-0', 'op-2'],
    ])
  })

  it('measures the halves separately when the whole bundle runs out of gas (AA95), refusing nobody', async () => {
    const { calls, simulator } = simulatorAnswering((ids) =>
      ids.length > 2 ? meterOutput(false, 0n, failedOp(2, 'AA95 out of gas')) : meterOutput(true, BigInt(ids.length) * 10_000n),
    )
    const refused = new Map<Hash, string>()
    const result = await simulator.simulate([item(0), item(1), item(2), item(3)], refused, 1_000_000n)
    expect(result).toEqual({ items: [item(0), item(1), item(2), item(3)], gasUsed: 40_000n })
    expect(refused.size).toBe(0)
    expect(calls.map((c) => c.ids)).toEqual([
      ['op-0', 'op-1', 'op-2', 'op-3'],
      ['op-0', 'op-1'],
      ['op-2', 'op-3'],
    ])
  })

  it('measures the halves when the validation loop itself runs out of the gas asked for (no revert data: a bundle over the cap)', async () => {
    // Six operations need more than the cap allows one call: handleOps runs dry before naming any operation.
    const { calls, simulator } = simulatorAnswering((ids) =>
      ids.length > 2 ? meterOutput(false, 16_000_000n, '0x') : meterOutput(true, BigInt(ids.length) * 10_000n),
    )
    const items = Array.from({ length: 6 }, (_, n) => item(n))
    const refused = new Map<Hash, string>()
    expect(await simulator.simulate(items, refused, 16_777_216n)).toEqual({ items, gasUsed: 60_000n })
    expect(refused.size).toBe(0)
    // Never more than the gas given, in every call.
    expect(calls.every((c) => c.gas === 16_777_216n)).toBe(true)
    expect(calls.map((c) => c.ids.length).sort()).toEqual([1, 1, 2, 2, 3, 3, 6])
  })

  it('refuses a lone operation that runs out of gas, leaving nothing to send', async () => {
    const { simulator } = simulatorAnswering(() => meterOutput(false, 0n, failedOp(0, 'AA95 out of gas')))
    const refused = new Map<Hash, string>()
    expect(await simulator.simulate([item(0)], refused, 1_000_000n)).toEqual({ items: [], gasUsed: 0n })
    expect(refused.get(item(0).userOpHash)).toBe('AA95 out of gas')
  })

  it('fails the whole bundle on a revert that names no operation, or when the node cannot simulate', async () => {
    const { simulator } = simulatorAnswering(() => meterOutput(false, 0n, '0xdeadbeef'))
    await expect(simulator.simulate([item(0)], new Map(), 1_000_000n)).rejects.toMatchObject({
      code: 'bundle_simulation_failed',
      details: { revertData: '0xdeadbeef' },
    })
    const down = createBundleSimulator(
      fakeContext({
        call: async () => {
          throw new Error('connection refused')
        },
      } as never),
    )
    const error = await down.simulate([item(0)], new Map(), 1_000_000n).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PrebuyError)
    expect(error).toMatchObject({ kind: 'unavailable', code: 'bundle_simulation_failed' })
  })

  it('reads FailedOp and FailedOpWithRevert, and nothing else', () => {
    expect(failedOpOf(failedOp(3, 'AA21 didn`t pay prefund'))).toEqual({ index: 3, reason: 'AA21 didn`t pay prefund' })
    const withRevert = encodeErrorResult({ abi: entryPoint07Abi, errorName: 'FailedOpWithRevert', args: [1n, 'AA23 reverted', '0x1234'] })
    expect(failedOpOf(withRevert)).toEqual({ index: 1, reason: 'AA23 reverted' })
    expect(failedOpOf('0xdeadbeef')).toBeUndefined()
  })
})
