import { concatHex, pad, type Address, type Hex, type PublicClient } from 'viem'

/**
 * Runtime code placed at a scratch address by state override (never deployed): calldata is a list of addresses, one
 * per 32-byte word; it returns one 32-byte word per address holding EXTCODESIZE. One eth_call answers "is it deployed"
 * for a whole bundle, where eth_getCode needs one request per account (and returns the code itself). Multicall3 has no
 * code-size getter. Hand-assembled (24 bytes, needs PUSH0: Shanghai or later):
 *
 *   00 PUSH0                 i = 0
 *   01 JUMPDEST              loop:
 *   02 DUP1 CALLDATASIZE GT ISZERO PUSH1 0x14 JUMPI      if !(calldatasize > i) goto end
 *   09 DUP1 CALLDATALOAD EXTCODESIZE DUP2 MSTORE         mem[i] = extcodesize(calldata[i])
 *   0e PUSH1 0x20 ADD PUSH1 0x01 JUMP                    i += 32; goto loop
 *   14 JUMPDEST CALLDATASIZE PUSH0 RETURN                end: return mem[0 : calldatasize]
 */
export const CODE_SIZE_READER_CODE: Hex = '0x5f5b8036111560145780353b81526020016001565b365ff3'

/** Where the reader is placed for the call: an address nobody controls. */
export const CODE_SIZE_READER_ADDRESS: Address = '0x00000000000000000000000000000000c0de5123'

/** Code size of every address, in one eth_call (none for an empty list). */
export async function readCodeSizes(client: PublicClient, addresses: readonly Address[]): Promise<number[]> {
  if (addresses.length === 0) return []
  const { data } = await client.call({
    to: CODE_SIZE_READER_ADDRESS,
    data: concatHex(addresses.map((address) => pad(address, { size: 32 }))),
    stateOverride: [{ address: CODE_SIZE_READER_ADDRESS, code: CODE_SIZE_READER_CODE }],
  })
  const hex = (data ?? '0x').slice(2)
  if (hex.length !== addresses.length * 64) throw new Error(`code-size reader returned ${hex.length / 2} bytes for ${addresses.length} addresses`)
  return addresses.map((_, index) => Number.parseInt(hex.slice(index * 64, index * 64 + 64), 16))
}
