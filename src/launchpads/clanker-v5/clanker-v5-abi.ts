import { parseAbi } from 'viem'

/** v4-core's PoolManager reads any storage slot (StateLibrary reads pools this way). */
export const EXTSLOAD_ABI = parseAbi(['function extsload(bytes32 startSlot, uint256 nSlots) view returns (bytes32[])'])
