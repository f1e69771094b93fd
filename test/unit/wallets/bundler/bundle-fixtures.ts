import { EIP_7825_TX_GAS_CAP } from '../../../../src/chain/tx-gas-cap.ts'
import {
  encodeAbiParameters,
  encodeEventTopics,
  hexToString,
  pad,
  slice,
  toHex,
  type Address,
  type Hash,
  type Hex,
  type LocalAccount,
  type Log,
  type PublicClient,
} from 'viem'
import { entryPoint07Abi, type UserOperation } from 'viem/account-abstraction'
import type { ChainConfig } from '../../../../src/chain/chain-keys.ts'
import { silentLogger } from '../../../../src/common/logger.ts'
import type { BundleItem } from '../../../../src/wallets/bundler/bundler.ts'
import type { BundlerContext } from '../../../../src/wallets/bundler/bundler-context.ts'
import type { HandleOpsEncoder } from '../../../../src/wallets/bundler/encode-handle-ops.ts'
import { createSenderPool } from '../../../../src/wallets/bundler/sender-pool.ts'

export const ENTRY_POINT: Address = '0x0000000071727De22E5E9d8BAf0edAc6f37da032'
export const BUNDLER: Address = '0x00000000000000000000000000000000000b0b00'
const SENDER: Address = '0x00000000000000000000000000000000000000aa'

export const hashOf = (n: number): Hash => pad(toHex(n), { size: 32 })

/** A bundle item whose only field that matters here is its call gas limit (headroom is sized from it). */
export const item = (n: number, callGasLimit = 100_000n): BundleItem => ({
  id: `op-${n}`,
  userOpHash: hashOf(n),
  userOperation: { callGasLimit } as UserOperation<'0.7'>,
})

/**
 * A stand-in for handleOps encoding: the items' ids as text, so a fake client can tell which items a call carries.
 * `bytesPerItem` non-zero bytes per item set the calldata gas.
 */
export function idEncoder(bytesPerItem = 0): HandleOpsEncoder {
  return (items) => toHex(items.map((i) => `${i.id};`.padEnd(bytesPerItem, '#')).join(''))
}

/** The ids of the items in a gas-meter call's data (EntryPoint address, then the idEncoder bytes). */
export const idsInMeterCall = (data: Hex): string[] =>
  hexToString(slice(data, 20))
    .split(';')
    .map((id) => id.replace(/^#+/, ''))
    .filter((id) => id !== '')

/** A bundler context over a fake client: only the methods a test gives exist. */
export function fakeContext(client: Partial<PublicClient>, handleOpsData: HandleOpsEncoder = idEncoder(), txGasCap = EIP_7825_TX_GAS_CAP): BundlerContext {
  const senders = createSenderPool([{ address: BUNDLER } as LocalAccount], { pendingNonce: async () => 0 })
  return {
    chain: { key: 'base', chainId: 8453, addresses: { entryPoint: ENTRY_POINT } } as unknown as ChainConfig,
    client: client as PublicClient,
    signer: { address: BUNDLER } as LocalAccount,
    log: silentLogger,
    entryPoint: ENTRY_POINT,
    nonces: senders.primary.nonces,
    senders,
    handleOpsData,
    txGasCap,
  }
}

const logFields = (txHash: Hash, blockNumber: bigint) => ({
  address: ENTRY_POINT,
  blockHash: hashOf(0xb10c),
  blockNumber,
  logIndex: 0,
  transactionHash: txHash,
  transactionIndex: 0,
  removed: false,
})

/** The EntryPoint's UserOperationEvent for one operation, as a receipt log. */
export function userOperationEvent(userOpHash: Hash, success: boolean, txHash: Hash, blockNumber: bigint): Log {
  return {
    ...logFields(txHash, blockNumber),
    topics: encodeEventTopics({ abi: entryPoint07Abi, eventName: 'UserOperationEvent', args: { userOpHash, sender: SENDER, paymaster: ENTRY_POINT } }) as [
      Hex,
      ...Hex[],
    ],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [0n, success, 0n, 0n]),
  }
}

/** The EntryPoint's UserOperationRevertReason for one operation, as a receipt log. */
export function userOperationRevertReason(userOpHash: Hash, revertData: Hex, txHash: Hash, blockNumber: bigint): Log {
  return {
    ...logFields(txHash, blockNumber),
    topics: encodeEventTopics({ abi: entryPoint07Abi, eventName: 'UserOperationRevertReason', args: { userOpHash, sender: SENDER } }) as [Hex, ...Hex[]],
    data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bytes' }], [0n, revertData]),
  }
}
