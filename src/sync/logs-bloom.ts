import { type Address, type Hex, hexToBytes, keccak256 } from 'viem'

/**
 * Whether a block's 2048-bit logs bloom admits a log emitted by one of `addresses` (undefined: any log at all). False
 * means certainly none; true may be a false positive. The bloom sets, for each log's address (and topics), three bits:
 * the low 11 bits of each of the first three byte pairs of the keccak-256 of the address's 20 bytes, counted from the
 * bloom's last byte (Ethereum yellow paper, §4.3.1, the function M3:2048).
 */
export function bloomMayHoldLogsOf(logsBloom: Hex | null, addresses: readonly Address[] | undefined): boolean {
  // No bloom (a node that omits it): assume the block may hold logs of ours.
  if (!logsBloom || logsBloom.length !== 2 + 512) return true
  const bloom = hexToBytes(logsBloom)
  if (addresses === undefined) return bloom.some((byte) => byte !== 0)
  return addresses.some((address) => {
    const hash = hexToBytes(keccak256(address.toLowerCase() as Hex))
    for (let i = 0; i < 6; i += 2) {
      const bit = ((hash[i]! << 8) | hash[i + 1]!) & 2047
      if ((bloom[255 - Math.floor(bit / 8)]! & (1 << (bit % 8))) === 0) return false
    }
    return true
  })
}
