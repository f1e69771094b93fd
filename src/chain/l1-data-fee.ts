import {
  type Address,
  BaseError,
  ContractFunctionZeroDataError,
  concatHex,
  type Hex,
  keccak256,
  numberToHex,
  parseAbi,
  type PublicClient,
  serializeTransaction,
} from 'viem'

/**
 * On an OP-stack chain (Base) every transaction pays, besides its L2 gas, an L1 data fee for posting its bytes to
 * Ethereum, charged from the sender's balance with the gas; the GasPriceOracle predeploy computes it:
 * `getL1Fee(bytes)` takes the RLP-encoded transaction (docs.optimism.io/stack/transactions/fees, "L1 data fee";
 * specs.optimism.io/protocol/predeploys.html, GasPriceOracle at 0x420000000000000000000000000000000000000F; since
 * Fjord the size is a FastLZ estimate, so incompressible bytes price the worst case). The devnet's anvil has no such
 * predeploy: there the fee is 0, as on any chain without one.
 */
export const GAS_PRICE_ORACLE: Address = '0x420000000000000000000000000000000000000F'

const GAS_PRICE_ORACLE_ABI = parseAbi(['function getL1Fee(bytes _data) view returns (uint256)'])

export interface L1DataFeeReader {
  /** The L1 data fee, wei, of this RLP-encoded transaction; 0 where the chain has no GasPriceOracle. */
  feeOf(serializedTransaction: Hex): Promise<bigint>
}

export function createL1DataFeeReader(client: Pick<PublicClient, 'readContract'>): L1DataFeeReader {
  return {
    async feeOf(serializedTransaction) {
      try {
        return await client.readContract({ address: GAS_PRICE_ORACLE, abi: GAS_PRICE_ORACLE_ABI, functionName: 'getL1Fee', args: [serializedTransaction] })
      } catch (error) {
        // A call to an address without code answers nothing: no predeploy on this chain (the devnet), no L1 fee. Any
        // other failure (the node down) is the caller's to handle.
        if (error instanceof BaseError && error.walk((e) => e instanceof ContractFunctionZeroDataError)) return 0n
        throw error
      }
    },
  }
}

/**
 * About how many calldata bytes one UserOperation adds to a handleOps transaction: a v0.7 packed operation (sender,
 * nonce, gas fields, paymaster-less) with its account's execute calls (approve + the router's swap) and a 65-byte
 * signature, ABI-encoded with offsets and padding. An estimate, used only to reserve ETH; the real fee is charged on
 * the real bytes.
 */
export const BYTES_PER_OPERATION = 1_200

/**
 * A stand-in transaction of the bundler EOA carrying `operations` operations, for pricing its L1 data fee ahead:
 * incompressible calldata of that size (a keccak chain), so the FastLZ estimate cannot price it under the real one.
 */
export function sampleBundleTransaction(chainId: number, to: Address, operations: number): Hex {
  const words: Hex[] = []
  let word = keccak256(numberToHex(operations))
  for (let i = 0; i < Math.ceil((operations * BYTES_PER_OPERATION) / 32); i++) {
    words.push(word)
    word = keccak256(word)
  }
  return serializeTransaction({
    type: 'eip1559',
    chainId,
    to,
    nonce: 1_000_000,
    gas: 16_777_216n,
    maxFeePerGas: 10n ** 11n,
    maxPriorityFeePerGas: 10n ** 10n,
    data: words.length > 0 ? concatHex(words) : '0x',
  })
}

/** Operations in the launch bundle the bundler's low mark keeps the L1 data fee of (one full first block of buys). */
export const RESERVED_LAUNCH_OPERATIONS = 100
