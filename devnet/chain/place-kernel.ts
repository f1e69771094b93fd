import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  concat,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  isAddressEqual,
  keccak256,
  pad,
  parseAbi,
  type Address,
  type Hex,
} from 'viem'
import {
  ENTRY_POINT_V07_ADDRESS,
  KERNEL_ECDSA_VALIDATOR_ADDRESS,
  KERNEL_META_FACTORY_ADDRESS,
  KERNEL_V3_1_FACTORY_ADDRESS,
  KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
} from '../../src/chain/canonical-addresses.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { loadArtifact } from './artifacts.ts'
import { constructAt, type ConstructAtContext } from './construct-at.ts'

/**
 * Kernel v0.3.1's and its KernelFactory's creation bytecode, copied from @rhinestone/modulekit 0.5.9
 * (src/deployment/precompiles/KernelPrecompiles.sol, MIT) by scripts/extract-kernel-bytecode.ts, which names the source
 * and its sha256 in the file.
 */
const KERNEL_BYTECODE_FILE = join(dirname(fileURLToPath(import.meta.url)), '..', 'contracts', 'kernel', 'kernel-v3.1-bytecode.json')

export interface KernelBytecode {
  kernel: Hex
  kernelFactory: Hex
}

export const loadKernelBytecode = (): KernelBytecode => {
  const json = JSON.parse(readFileSync(KERNEL_BYTECODE_FILE, 'utf8')) as KernelBytecode
  return { kernel: json.kernel, kernelFactory: json.kernelFactory }
}

const KERNEL_ABI = parseAbi(['function entrypoint() view returns (address)'])
const FACTORY_ABI = parseAbi(['function implementation() view returns (address)'])
const META_FACTORY_ABI = parseAbi(['function approved(address) view returns (bool)'])

/**
 * Places Kernel v3.1 at its canonical Base addresses (permissionless' constants, src/chain/canonical-addresses.ts), so
 * that a wallet's counterfactual address, its deployment through the meta-factory and its execution are those of Base:
 * - the implementation and the KernelFactory (the real bytecode) have their constructors run *at* their addresses
 *   (constructAt): the implementation caches its own address and the chain id for its EIP-712 domain, as Permit2 does,
 *   and marks itself initialised; the factory's `implementation` immutable is the canonical implementation, which
 *   with the factory's own address fixes every account's CREATE2 address;
 * - the ECDSA validator and the meta-factory are devnet imitations of ZeroDev's (no package ships their bytecode;
 *   devnet/contracts/kernel/); on Base the real ones are used;
 * - the meta-factory's approval of the KernelFactory, which its owner gave on Base with approveFactory, is written into
 *   its storage (`approved` is the mapping at slot 0, in the real contract and the imitation).
 * Checked afterwards: the placed contracts report what the account code relies on.
 */
export async function placeKernel(context: ConstructAtContext): Promise<void> {
  const { rpcUrl } = context
  const bytecode = loadKernelBytecode()
  await constructAt(
    context,
    KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
    concat([bytecode.kernel, encodeAbiParameters([{ type: 'address' }], [ENTRY_POINT_V07_ADDRESS])]),
  )
  await constructAt(
    context,
    KERNEL_V3_1_FACTORY_ADDRESS,
    concat([bytecode.kernelFactory, encodeAbiParameters([{ type: 'address' }], [KERNEL_V3_1_IMPLEMENTATION_ADDRESS])]),
  )
  const validator = loadArtifact('DevnetEcdsaValidator')
  await constructAt(context, KERNEL_ECDSA_VALIDATOR_ADDRESS, validator.bytecode, (validator.deployedBytecode.length - 2) / 2)
  const metaFactory = loadArtifact('DevnetKernelFactoryStaker')
  await constructAt(context, KERNEL_META_FACTORY_ADDRESS, metaFactory.bytecode, (metaFactory.deployedBytecode.length - 2) / 2)
  const approvalSlot = keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [KERNEL_V3_1_FACTORY_ADDRESS, 0n]))
  await jsonRpc(rpcUrl, 'anvil_setStorageAt', [KERNEL_META_FACTORY_ADDRESS, approvalSlot, pad('0x01', { size: 32 })])
  await checkKernelPlacement(rpcUrl)
}

async function checkKernelPlacement(rpcUrl: string): Promise<void> {
  const read = async <T>(
    address: Address,
    abi: typeof KERNEL_ABI | typeof FACTORY_ABI | typeof META_FACTORY_ABI,
    functionName: string,
    args: unknown[] = [],
  ) => {
    const data = encodeFunctionData({ abi, functionName, args } as Parameters<typeof encodeFunctionData>[0])
    const result = await jsonRpc<Hex>(rpcUrl, 'eth_call', [{ to: address, data }, 'latest'])
    return decodeFunctionResult({ abi, functionName, data: result } as Parameters<typeof decodeFunctionResult>[0]) as T
  }
  const entryPoint = await read<Address>(KERNEL_V3_1_IMPLEMENTATION_ADDRESS, KERNEL_ABI, 'entrypoint')
  const implementation = await read<Address>(KERNEL_V3_1_FACTORY_ADDRESS, FACTORY_ABI, 'implementation')
  const approved = await read<boolean>(KERNEL_META_FACTORY_ADDRESS, META_FACTORY_ABI, 'approved', [KERNEL_V3_1_FACTORY_ADDRESS])
  if (!isAddressEqual(entryPoint, ENTRY_POINT_V07_ADDRESS) || !isAddressEqual(implementation, KERNEL_V3_1_IMPLEMENTATION_ADDRESS) || !approved) {
    throw new PrebuyError('devnet_deploy_failed', 'Kernel v3.1 placed at its canonical addresses reports unexpected wiring.', {
      details: { entryPoint: getAddress(entryPoint), implementation: getAddress(implementation), approved },
    })
  }
}
