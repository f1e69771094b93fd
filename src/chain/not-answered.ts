import { BaseError, ContractFunctionRevertedError, ContractFunctionZeroDataError } from 'viem'

/**
 * A contract call the contract did not answer (no such getter: it reverted or returned no data), as opposed to a failed
 * RPC. Adapters use it to tell which of several real contracts they are reading; a transport error must propagate.
 */
export const notAnswered = (error: unknown): boolean =>
  error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionRevertedError || e instanceof ContractFunctionZeroDataError) !== null
