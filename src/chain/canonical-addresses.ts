import type { Address } from 'viem'

/**
 * Addresses that are the same on every EVM chain because the contracts were deployed deterministically. The devnet
 * places its copies at these addresses too, so code and SDKs that assume them (viem's multicall, bundlers, Permit2
 * signatures, ERC-4337 tooling) behave on devnet exactly as on Base.
 */
export const PERMIT2_ADDRESS: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
export const ENTRY_POINT_V07_ADDRESS: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
export const MULTICALL3_ADDRESS: Address = '0xcA11bde05977b3631167028862bE2a173976CA11'
/** Arachnid's deterministic CREATE2 deployer (input: 32-byte salt ++ init code); anvil pre-deploys it. */
export const CREATE2_DEPLOYER_ADDRESS: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'
/**
 * The canonical SimpleAccountFactory v0.7: @account-abstraction/contracts@0.7.0's init code with the EntryPoint v0.7 as
 * argument, through the CREATE2 deployer with salt 0 (../shared/facts/base-today.md; permissionless's default).
 */
export const SIMPLE_ACCOUNT_FACTORY_V07_ADDRESS: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985'
/**
 * Kernel v3.1 (ZeroDev), permissionless 0.4.1's KERNEL_VERSION_TO_ADDRESSES_MAP["0.3.1"]
 * (node_modules/permissionless/_esm/accounts/kernel/toKernelSmartAccount.js; ../shared/facts/base-today.md): the
 * account implementation, its KernelFactory, the meta-factory (FactoryStaker) permissionless deploys accounts through,
 * and the ECDSA validator every wallet is rooted in. The devnet places its copies at these addresses.
 */
export const KERNEL_V3_1_IMPLEMENTATION_ADDRESS: Address = '0xBAC849bB641841b44E965fB01A4Bf5F074f84b4D'
export const KERNEL_V3_1_FACTORY_ADDRESS: Address = '0xaac5D4240AF87249B3f71BC8E4A2cae074A3E419'
export const KERNEL_META_FACTORY_ADDRESS: Address = '0xd703aaE79538628d27099B8c4f621bE4CCd142d5'
export const KERNEL_ECDSA_VALIDATOR_ADDRESS: Address = '0x845ADb2C711129d4f3966735eD98a9F09fC4cE57'
