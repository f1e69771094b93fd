/**
 * What nodes answer eth_sendRawTransaction with when a transaction's gas limit is over EIP-7825's cap: anvil 1.7.1
 * with `--enable-tx-gas-limit` says "intrinsic gas too high -- tx.gas_limit > env.cfg.tx_gas_limit_cap" (observed);
 * Base's docs describe "exceeds maximum per-transaction gas limit" (docs.base.org/base-chain/network-information/
 * throughput-and-limits); geth's ErrGasLimitTooHigh reads "transaction gas limit too high".
 */
const GAS_CAP_REFUSAL = /tx_gas_limit_cap|per-transaction gas limit|transaction gas limit too high|gas limit cap/i

/** Whether a node's refusal of a transaction is EIP-7825's gas cap (the transaction must be smaller, not retried as is). */
export const isGasCapRefusal = (message: string): boolean => GAS_CAP_REFUSAL.test(message)
