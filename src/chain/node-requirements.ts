/**
 * What the daemon asks of a node, in one place so start-up can check the node accepts it (verify-chain.ts) before the
 * first launch depends on it.
 */

/**
 * The most requests the daemon puts in one JSON-RPC batch (the wallet service's HTTP transport: many small reads of
 * one bundle travel in one request). Providers cap batch sizes; start-up sends one batch this large.
 */
export const RPC_BATCH_SIZE = 1_000

/**
 * The gas the daemon passes to a simulation `eth_call`: at most EIP-7825's per-transaction cap, 2^24 = 16,777,216, which
 * Base enforces since Azul (docs.base.org/base-chain/network-information/throughput-and-limits; eips.ethereum.org/EIPS/eip-7825).
 * Nodes cap `eth_call` gas (geth's `--rpc.gascap`, 50M by default; providers often lower): a node that silently
 * lowers it would make every bundle simulation run out of gas.
 */
export const SIMULATION_CALL_GAS = 2n ** 24n
