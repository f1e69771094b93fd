import { type Address, encodeAbiParameters, type Hex, keccak256, parseAbi, type PublicClient } from 'viem'

export const EXTSLOAD = parseAbi(['function extsload(bytes32 slot) view returns (bytes32)'])
/** v4-core StateLibrary.POOLS_SLOT: the PoolManager's `pools` mapping. */
const POOLS_SLOT = 6n

/**
 * The LP fee stored in a v4 pool's slot0 at a block, read from the PoolManager itself (`extsload`, as v4-core's
 * StateLibrary.getSlot0 does: slot0 packs sqrtPriceX96 (160 bits), tick (24), protocolFee (24), lpFee (24)). For a
 * dynamic-fee pool whose hook never overrides it per swap (Doppler's DopplerHookInitializer), it is the fee every swap
 * pays until the hook updates it.
 */
export async function readPoolLpFee(client: PublicClient, poolManager: Address, poolId: Hex, blockNumber?: bigint): Promise<number> {
  const slot = keccak256(encodeAbiParameters([{ type: 'bytes32' }, { type: 'uint256' }], [poolId, POOLS_SLOT]))
  const word = await client.readContract({
    address: poolManager,
    abi: EXTSLOAD,
    functionName: 'extsload',
    args: [slot],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  })
  return Number((BigInt(word) >> 208n) & 0xffffffn)
}
