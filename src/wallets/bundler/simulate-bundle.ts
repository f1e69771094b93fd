import { decodeErrorResult, type Hash, type Hex } from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { PrebuyError } from '../../common/errors.ts'
import type { BundleItem } from './bundler.ts'
import type { LandingBlock } from '../wallet-service.ts'
import type { BundlerContext } from './bundler-context.ts'
import { decodeGasMeterOutput, GAS_METER_ADDRESS, GAS_METER_CODE, gasMeterInput } from './gas-meter.ts'

/** The operations of a bundle the EntryPoint accepts, and the execution gas they used together. */
export interface SimulatedBundle {
  items: BundleItem[]
  gasUsed: bigint
}

export interface BundleSimulator {
  /**
   * Simulates a bundle in one eth_call through the gas meter, dropping every op the EntryPoint refuses in validation
   * (FailedOp names its index) until the rest passes; returns the survivors and their execution gas. Each refusal is
   * added to `refused` (userOpHash -> the EntryPoint's reason). With `landsIn` the call runs in that block's context
   * (number and time as eth_call block overrides), where the node supports them.
   */
  simulate(items: readonly BundleItem[], refused: Map<Hash, string>, callGas: bigint, landsIn?: LandingBlock): Promise<SimulatedBundle>
}

/** A node's answer to eth_call's fourth parameter it does not take (invalid params, or a message naming it). */
export function refusesOverrides(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === -32602) return true
    if (/override|too many (arguments|params)|invalid params/i.test(e.message)) return true
  }
  return false
}

/** FailedOp / FailedOpWithRevert in the EntryPoint's revert data: which op it refused and why. */
export function failedOpOf(data: Hex): { index: number; reason: string } | undefined {
  try {
    const decoded = decodeErrorResult({ abi: entryPoint07Abi, data })
    if (decoded.errorName === 'FailedOp' || decoded.errorName === 'FailedOpWithRevert') {
      return { index: Number(decoded.args[0]), reason: decoded.args[1] }
    }
  } catch {
    // Not an EntryPoint error: the caller reports the raw data.
  }
  return undefined
}

export function createBundleSimulator(ctx: Pick<BundlerContext, 'chain' | 'client' | 'signer' | 'log' | 'entryPoint' | 'handleOpsData'>): BundleSimulator {
  const { chain, client, signer, log, entryPoint, handleOpsData } = ctx

  // A node that refuses eth_call block overrides (an older RPC) is asked without them from then on.
  let overridesRefused = false

  async function callMeter(remaining: readonly BundleItem[], callGas: bigint, landsIn: LandingBlock | undefined): Promise<Hex | undefined> {
    const request = {
      account: signer.address,
      to: GAS_METER_ADDRESS,
      data: gasMeterInput(entryPoint, handleOpsData(remaining)),
      gas: callGas,
      stateOverride: [{ address: GAS_METER_ADDRESS, code: GAS_METER_CODE }],
    }
    if (landsIn && !overridesRefused) {
      try {
        return (await client.call({ ...request, blockOverrides: { number: landsIn.number, time: landsIn.timestamp } })).data
      } catch (error) {
        if (!refusesOverrides(error)) throw error
        overridesRefused = true
        log.warn({ err: error }, 'the node refuses eth_call block overrides: bundles are simulated in the latest block context')
      }
    }
    return (await client.call(request)).data
  }

  async function simulate(items: readonly BundleItem[], refused: Map<Hash, string>, callGas: bigint, landsIn?: LandingBlock): Promise<SimulatedBundle> {
    let remaining = [...items]
    while (remaining.length > 0) {
      let output: Hex | undefined
      try {
        output = await callMeter(remaining, callGas, landsIn)
      } catch (error) {
        throw new PrebuyError('bundle_simulation_failed', `Could not simulate the bundle on ${chain.key}.`, { cause: error })
      }
      if (!output) throw new PrebuyError('bundle_simulation_failed', `The bundle simulation on ${chain.key} returned nothing.`)
      const measured = decodeGasMeterOutput(output)
      if (measured.success) return { items: remaining, gasUsed: measured.gasUsed }
      const failed = failedOpOf(measured.returnData)
      // Out of gas for the whole bundle, not a fault of an operation: AA95 when an operation's execution had too little
      // left, or no revert data at all when the validation loop itself ran out (a bundle bigger than the gas one
      // transaction may ask for, EIP-7825's cap). The halves are measured separately and together (each validated
      // against the same state; the bundle is split into transactions by the measured cost anyway).
      if ((failed?.reason.startsWith('AA95') || measured.returnData === '0x') && remaining.length > 1) {
        const half = Math.ceil(remaining.length / 2)
        const [head, tail] = await Promise.all([
          simulate(remaining.slice(0, half), refused, callGas, landsIn),
          simulate(remaining.slice(half), refused, callGas, landsIn),
        ])
        return { items: [...head.items, ...tail.items], gasUsed: head.gasUsed + tail.gasUsed }
      }
      const item = failed ? remaining[failed.index] : undefined
      if (!failed || !item) {
        throw new PrebuyError('bundle_simulation_failed', `The EntryPoint rejected the bundle on ${chain.key}.`, {
          details: { revertData: measured.returnData.slice(0, 266) },
        })
      }
      log.warn({ userOpHash: item.userOpHash, id: item.id, reason: failed.reason }, 'user operation refused in validation')
      refused.set(item.userOpHash, failed.reason)
      remaining = remaining.filter((_, index) => index !== failed.index)
    }
    return { items: [], gasUsed: 0n }
  }

  return { simulate }
}
