import { concat, getContractAddress, type Account, type Address, type Chain, type Hex, type PublicClient, type Transport, type WalletClient } from 'viem'
import { CREATE2_DEPLOYER_ADDRESS as CREATE2_DEPLOYER } from '../../src/chain/canonical-addresses.ts'
import { PrebuyError } from '../../src/common/errors.ts'

/** Where the CREATE2 deployer puts `initCode` (bytecode + constructor arguments) for `salt`: the same on every chain. */
export const create2Address = (salt: Hex, initCode: Hex): Address => getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt, bytecode: initCode })

/**
 * Deploys a contract of ours through the CREATE2 deployer unless it is already there (idempotent: restarts and a second
 * daemon find it). Any funded account can send the deployment; the address depends only on salt and init code.
 */
export async function ensureCreate2Contract(options: {
  publicClient: PublicClient
  walletClient: WalletClient<Transport, Chain, Account>
  salt: Hex
  initCode: Hex
  /** For errors: the contract's name. */
  name: string
}): Promise<Address> {
  const { publicClient, walletClient, salt, initCode, name } = options
  const address = create2Address(salt, initCode)
  const existing = await publicClient.getCode({ address })
  if (existing && existing !== '0x') return address
  const deployerCode = await publicClient.getCode({ address: CREATE2_DEPLOYER })
  if (!deployerCode || deployerCode === '0x') {
    throw new PrebuyError('create2_deployer_missing', 'The deterministic CREATE2 deployer is not on this chain')
  }
  const hash = await walletClient.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([salt, initCode]) })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  const code = await publicClient.getCode({ address })
  if (receipt.status !== 'success' || !code || code === '0x') throw new PrebuyError('contract_deploy_failed', `${name} deployment failed`)
  return address
}
