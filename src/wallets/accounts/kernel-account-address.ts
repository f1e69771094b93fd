import { concat, concatHex, encodeFunctionData, getContractAddress, keccak256, parseAbi, toHex, type Address, type Hex } from 'viem'
import {
  KERNEL_ECDSA_VALIDATOR_ADDRESS,
  KERNEL_META_FACTORY_ADDRESS,
  KERNEL_V3_1_FACTORY_ADDRESS,
  KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
} from '../../chain/canonical-addresses.ts'

/** Kernel v3.1's addresses a wallet depends on (the canonical ones by default; overridable for tests). */
export interface KernelAddresses {
  implementation: Address
  factory: Address
  metaFactory: Address
  validator: Address
}

export const CANONICAL_KERNEL_ADDRESSES: KernelAddresses = {
  implementation: KERNEL_V3_1_IMPLEMENTATION_ADDRESS,
  factory: KERNEL_V3_1_FACTORY_ADDRESS,
  metaFactory: KERNEL_META_FACTORY_ADDRESS,
  validator: KERNEL_ECDSA_VALIDATOR_ADDRESS,
}

/** Every wallet uses index 0: each user already has its own owner key, so a salt adds nothing. */
export const KERNEL_ACCOUNT_INDEX = 0n

// permissionless 0.4.1's KernelV3_1AccountAbi.initialize and KernelV3MetaFactoryDeployWithFactoryAbi.
const KERNEL_INIT_ABI = parseAbi(['function initialize(bytes21 _rootValidator, address hook, bytes validatorData, bytes hookData, bytes[] initConfig)'])
const META_FACTORY_ABI = parseAbi(['function deployWithFactory(address factory, bytes createData, bytes32 salt) payable returns (address)'])

/**
 * The account's initialisation call, exactly as permissionless' toKernelSmartAccount (0.3.1, a local ECDSA owner)
 * encodes it: the ECDSA validator as root (validation type 0x01 ++ its address), no hook, the owner's 20 bytes as the
 * validator's data, no hook data, no further modules.
 */
export const kernelInitData = (owner: Address, addresses: KernelAddresses = CANONICAL_KERNEL_ADDRESSES): Hex =>
  encodeFunctionData({
    abi: KERNEL_INIT_ABI,
    functionName: 'initialize',
    args: [concatHex(['0x01', addresses.validator]), '0x0000000000000000000000000000000000000000', owner, '0x', []],
  })

/** The meta-factory call that deploys the account (what permissionless puts in the first UserOperation's factoryData). */
export const kernelFactoryData = (owner: Address, addresses: KernelAddresses = CANONICAL_KERNEL_ADDRESSES): Hex =>
  encodeFunctionData({
    abi: META_FACTORY_ABI,
    functionName: 'deployWithFactory',
    args: [addresses.factory, kernelInitData(owner, addresses), toHex(KERNEL_ACCOUNT_INDEX, { size: 32 })],
  })

/**
 * Offline twin of `KernelFactory.getAddress(initData, salt)` (zerodevapp/kernel src/factory/KernelFactory.sol): the
 * factory CREATE2s Solady's minimal ERC1967 proxy of the implementation with salt keccak256(initData ++ salt), so
 * the address is CREATE2(factory, that salt, keccak256(proxy init code)). The proxy's init code is Solady LibClone's
 * `initCodeERC1967(implementation)`; the devnet test (test/wallets/kernel-wallet.test.ts) checks this against the
 * real KernelFactory bytecode.
 */
export function kernelAccountAddress(owner: Address, addresses: KernelAddresses = CANONICAL_KERNEL_ADDRESSES): Address {
  const salt = keccak256(concat([kernelInitData(owner, addresses), toHex(KERNEL_ACCOUNT_INDEX, { size: 32 })]))
  return getContractAddress({ opcode: 'CREATE2', from: addresses.factory, salt, bytecodeHash: keccak256(erc1967ProxyInitCode(addresses.implementation)) })
}

const erc1967ProxyInitCode = (implementation: Address): Hex =>
  concat([
    '0x603d3d8160223d3973',
    implementation,
    '0x60095155f3363d3d373d3d363d7f360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc545af43d6000803e6038573d6000fd5b3d6000f3',
  ])
