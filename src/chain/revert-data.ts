import { BaseError, type Hex } from 'viem'

const hexOf = (value: unknown): Hex | undefined =>
  typeof value === 'string' && value.startsWith('0x')
    ? (value as Hex)
    : typeof value === 'object' && value !== null
      ? hexOf((value as { data?: unknown }).data)
      : undefined

/** The revert data of a failed eth_call, if the node returned any: on whichever error in the chain carries it. */
export const revertDataOf = (error: unknown): Hex | undefined => {
  if (!(error instanceof BaseError)) return undefined
  const carrier = error.walk((e) => hexOf((e as { data?: unknown }).data) !== undefined)
  return carrier ? hexOf((carrier as { data?: unknown }).data) : undefined
}
