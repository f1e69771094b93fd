import type { Address, LocalAccount, PublicClient } from 'viem'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { Logger } from '../../common/logger.ts'
import { txGasCapOf } from '../../chain/tx-gas-cap.ts'
import { createHandleOpsEncoder, type HandleOpsEncoder } from './encode-handle-ops.ts'
import type { NonceManager } from './nonce-manager.ts'
import { createSenderPool, type SenderPool } from './sender-pool.ts'

/**
 * What every part of our own bundler shares: one chain, its client, the bundler EOA and that EOA's nonces, and the
 * pool of sender accounts (the bundler EOA first) that send its transactions in parallel.
 */
export interface BundlerContext {
  chain: ChainConfig
  client: PublicClient
  /** The bundler EOA (sender account 0): the handleOps beneficiary, the operator our contracts name. */
  signer: LocalAccount
  log: Logger
  entryPoint: Address
  /** The bundler EOA's nonces (the pool's primary lane). */
  nonces: NonceManager
  /** Every sender account of the chain, each with its own nonces (sender-pool.ts). */
  senders: SenderPool
  handleOpsData: HandleOpsEncoder
  /** Most gas one transaction may ask for on this chain (EIP-7825: 2^24 on Base), also the most an eth_call asks for. */
  txGasCap: bigint
}

export function createBundlerContext(options: {
  chain: ChainConfig
  client: PublicClient
  signer: LocalAccount
  /** Further sender accounts beside `signer` (wallet.senderAccounts - 1 of them); none: the bundler EOA sends alone. */
  extraSigners?: readonly LocalAccount[]
  logger: Logger
}): BundlerContext {
  const { chain, client, signer, logger } = options
  const senders = createSenderPool([signer, ...(options.extraSigners ?? [])], {
    pendingNonce: (address) => client.getTransactionCount({ address, blockTag: 'pending' }),
  })
  return {
    chain,
    client,
    signer,
    log: logger.child({ component: 'bundler', chain: chain.key }),
    entryPoint: chain.addresses.entryPoint,
    nonces: senders.primary.nonces,
    senders,
    handleOpsData: createHandleOpsEncoder(signer.address),
    txGasCap: txGasCapOf(chain),
  }
}
