import { concat, getAddress, keccak256, slice, toHex, type Address, type Hash, type Hex } from 'viem'
import { PrebuyError } from '../../src/common/errors.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'

/**
 * What `constructAt` needs from its caller: the chain's RPC URL and a way to send a transaction from the deployer and
 * wait for its (successful) receipt.
 */
export interface ConstructAtContext {
  rpcUrl: string
  /** The account the constructor sees as `msg.sender` (the transaction's sender). */
  from: Address
  /** Sends `data` to `to` from `from` and resolves once it is mined successfully. */
  send(to: Address, data: Hex, what: string): Promise<Hash>
}

/**
 * Runs a contract's constructor *at* an address we cannot deploy to (a contract's real Base address, whose deployer key
 * and nonce or CREATE2 factory we do not have), so the contract behaves exactly as if it had been deployed there:
 *
 * 1. the creation code (with its constructor arguments appended) is set as the *runtime* code of a scratch address;
 * 2. the target gets a tiny runner that DELEGATECALLs the scratch address and returns what it returned;
 * 3. calling the runner executes the creation code in the target's context: `address(this)` is the target (so
 *    immutables that embed it — v4 PoolManager's and the v3 factory's NoDelegateCall `original`, Permit2's and
 *    PositionManager's cached EIP-712 domain separators and chain ids — are computed for the target), storage writes
 *    land in the target's storage, `msg.sender` is the deployer, and CODECOPY/CODESIZE read the creation code as under
 *    CREATE (Solidity's constructor-argument decoding relies on that);
 * 4. the bytes the creation code returns (the runtime code with its immutables filled in) become the target's code.
 *
 * The call is made twice: first as an `eth_call` to obtain the returned runtime code, then as a transaction for the
 * storage writes and events. Constructors that depend on the block (none of the placed contracts do) would differ
 * between the two; the result is checked against the artifact's runtime length. The one observable difference from a
 * real deployment: during construction the target already has code (the runner), so `address(this).code.length` is not
 * zero there; none of the placed contracts look. The target's nonce is set to 1 as EIP-161 gives a new contract, so
 * contracts its constructor creates (none here) would land where they do on a real chain.
 */
export async function constructAt(context: ConstructAtContext, target: Address, creationCode: Hex, expectedRuntimeLength?: number): Promise<Hex> {
  const { rpcUrl } = context
  const scratch = scratchAddressFor(target)
  await jsonRpc(rpcUrl, 'anvil_setCode', [scratch, creationCode])
  await jsonRpc(rpcUrl, 'anvil_setCode', [target, runnerCode(scratch)])
  await jsonRpc(rpcUrl, 'anvil_setNonce', [target, '0x1'])
  try {
    const runtime = await jsonRpc<Hex>(rpcUrl, 'eth_call', [{ from: context.from, to: target, data: '0x' }, 'latest'])
    if (runtime === '0x' || (expectedRuntimeLength !== undefined && (runtime.length - 2) / 2 !== expectedRuntimeLength)) {
      throw new PrebuyError('devnet_deploy_failed', `Constructing a contract at ${target} returned unexpected runtime code.`, {
        details: { target, length: (runtime.length - 2) / 2, expectedRuntimeLength },
      })
    }
    await context.send(target, '0x', `construct at ${target}`)
    await jsonRpc(rpcUrl, 'anvil_setCode', [target, runtime])
    return runtime
  } finally {
    await jsonRpc(rpcUrl, 'anvil_setCode', [scratch, '0x'])
  }
}

/** A per-target scratch address nobody else uses: the low 20 bytes of keccak("prebuy.devnet.construct-at" ++ target). */
export const scratchAddressFor = (target: Address): Address => getAddress(slice(keccak256(concat([toHex('prebuy.devnet.construct-at'), target])), 12))

/**
 * DELEGATECALL `implementation` with no calldata and all gas, then return (or revert with) its return data:
 *   PUSH0 PUSH0 PUSH0 PUSH0 PUSH20 <implementation> GAS DELEGATECALL
 *   RETURNDATASIZE PUSH0 PUSH0 RETURNDATACOPY
 *   PUSH1 0x25 JUMPI  RETURNDATASIZE PUSH0 REVERT
 *   JUMPDEST RETURNDATASIZE PUSH0 RETURN
 * (PUSH0 needs Shanghai; anvil's default hardfork is newer.)
 */
export const runnerCode = (implementation: Address): Hex => concat(['0x5f5f5f5f73', implementation.toLowerCase() as Hex, '0x5af43d5f5f3e6025573d5ffd5b3d5ff3'])
