import { encodeFunctionData, type Address, type Hex } from 'viem'
import { entryPoint07Abi, toPackedUserOperation } from 'viem/account-abstraction'
import type { BundleItem } from './bundler.ts'

/** handleOps calldata of a bundle, paying `beneficiary`. */
export type HandleOpsEncoder = (items: readonly BundleItem[]) => Hex

export function createHandleOpsEncoder(beneficiary: Address): HandleOpsEncoder {
  // A bundle is encoded for its simulation, its gas and its transaction: once per bundle array.
  const encodedBundles = new WeakMap<readonly BundleItem[], Hex>()
  return (items) => {
    let data = encodedBundles.get(items)
    if (data === undefined) {
      data = encodeFunctionData({
        abi: entryPoint07Abi,
        functionName: 'handleOps',
        // Zero-fee operations pay the beneficiary nothing; the bundler EOA is named anyway.
        args: [items.map((item) => toPackedUserOperation(item.userOperation)), beneficiary],
      })
      encodedBundles.set(items, data)
    }
    return data
  }
}
