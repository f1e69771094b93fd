import { type Address, getAddress, type Hex, parseAbi } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { PoolKey } from '../../src/launchpads/launchpad-adapter.ts'
import { confirmDevnetTx, devnetPublicClient, impersonate, submitDevnetCall } from './send-devnet-tx.ts'

/** v4-core IProtocolFees (src/ProtocolFees.sol) and Owned. */
const PROTOCOL_FEES = parseAbi([
  'struct PoolKey { address currency0; address currency1; uint24 fee; int24 tickSpacing; address hooks; }',
  'function owner() view returns (address)',
  'function protocolFeeController() view returns (address)',
  'function setProtocolFeeController(address controller)',
  'function setProtocolFee(PoolKey key, uint24 newProtocolFee)',
])

/** Who sets protocol fees on the devnet PoolManager (impersonated): named controller by the PoolManager's owner. */
export const DEVNET_PROTOCOL_FEE_CONTROLLER: Address = getAddress('0x00000000000000000000000000000000000fee5c')

/**
 * Sets a pool's v4 protocol fee as Base's controller would (v4-core ProtocolFees.setProtocolFee: only the controller,
 * each direction at most 1,000 pips; `packed` = oneForZero << 12 | zeroForOne). The owner is impersonated to name the
 * devnet controller first. Returns the setProtocolFee transaction, mined.
 */
export async function setDevnetProtocolFee(chain: ChainConfig, poolKey: PoolKey, packed: number): Promise<Hex> {
  const client = devnetPublicClient(chain)
  const manager = chain.addresses.poolManager
  const controller = await client.readContract({ address: manager, abi: PROTOCOL_FEES, functionName: 'protocolFeeController' })
  if (controller.toLowerCase() !== DEVNET_PROTOCOL_FEE_CONTROLLER.toLowerCase()) {
    const owner = await client.readContract({ address: manager, abi: PROTOCOL_FEES, functionName: 'owner' })
    await impersonate(chain, owner)
    const hash = await submitDevnetCall(chain, owner, {
      address: manager,
      abi: PROTOCOL_FEES,
      functionName: 'setProtocolFeeController',
      args: [DEVNET_PROTOCOL_FEE_CONTROLLER],
    })
    await confirmDevnetTx(chain, hash)
  }
  await impersonate(chain, DEVNET_PROTOCOL_FEE_CONTROLLER)
  const hash = await submitDevnetCall(chain, DEVNET_PROTOCOL_FEE_CONTROLLER, {
    address: manager,
    abi: PROTOCOL_FEES,
    functionName: 'setProtocolFee',
    args: [poolKey, packed],
  })
  await confirmDevnetTx(chain, hash)
  return hash
}
