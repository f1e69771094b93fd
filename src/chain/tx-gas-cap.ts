import type { ChainConfig } from './chain-keys.ts'

/**
 * EIP-7825's per-transaction gas cap, 2^24 = 16,777,216: a node refuses a transaction whose gas limit is higher
 * (deposit transactions excepted). Base enforces it since Azul (2026-05-28); sources: eips.ethereum.org/EIPS/eip-7825,
 * docs.base.org/base-chain/network-information/throughput-and-limits, docs.base.org/base-chain/specs/upgrades/azul/
 * exec-engine. anvil 1.7.1 enforces the same figure with `--enable-tx-gas-limit` (the devnet runs with it).
 */
export const EIP_7825_TX_GAS_CAP = 16_777_216n

/** The least cap a chain may configure: below it one swap-sized operation with its bundle overhead would not fit. */
export const MIN_TX_GAS_CAP = 2_000_000n

/** The most gas any one transaction the service sends on `chain` may ask for (and any eth_call it makes). */
export const txGasCapOf = (chain: Pick<ChainConfig, 'txGasCap'>): bigint => chain.txGasCap ?? EIP_7825_TX_GAS_CAP
