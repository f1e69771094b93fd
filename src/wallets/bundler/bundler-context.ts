import type { Address, LocalAccount, PublicClient } from 'viem'
import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { Logger } from '../../common/logger.ts'
import { txGasCapOf } from '../../chain/tx-gas-cap.ts'
import { createHandleOpsEncoder, type HandleOpsEncoder } from './encode-handle-ops.ts'
import { createNonceManager, type NonceManager } from './nonce-manager.ts'

/** What every part of our own bundler shares: one chain, its client, the bundler EOA and that EOA's nonces. */
export interface BundlerContext {
  chain: ChainConfig
  client: PublicClient
  signer: LocalAccount
  log: Logger
  entryPoint: Address
  nonces: NonceManager
  handleOpsData: HandleOpsEncoder
  /** Most gas one transaction may ask for on this chain (EIP-7825: 2^24 on Base), also the most an eth_call asks for. */
  txGasCap: bigint
}

export function createBundlerContext(options: { chain: ChainConfig; client: PublicClient; signer: LocalAccount; logger: Logger }): BundlerContext {
  const { chain, client, signer, logger } = options
  return {
    chain,
    client,
    signer,
    log: logger.child({ component: 'bundler', chain: chain.key }),
    entryPoint: chain.addresses.entryPoint,
    nonces: createNonceManager(signer.address, {
      pendingNonce: (address) => client.getTransactionCount({ address, blockTag: 'pending' }),
    }),
    handleOpsData: createHandleOpsEncoder(signer.address),
    txGasCap: txGasCapOf(chain),
  }
}
