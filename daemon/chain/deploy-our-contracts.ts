import { BaseError, createWalletClient, InsufficientFundsError, type LocalAccount, type PublicClient } from 'viem'
import type { DeployContractsResult } from '../../src/admin-api/contract.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { chainFromConfig } from '../../src/chain/clients.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { Logger } from '../../src/common/logger.ts'
import { ensureCreate2Contract } from './ensure-create2-contract.ts'
import type { OurContract } from './our-contracts.ts'
import { rpcHttp } from '../../src/chain/rpc-http.ts'

/**
 * `prebuy contracts deploy`: puts this service's own contracts on a chain through the CREATE2 deployer, sent by the
 * bundler EOA (the daemon holds its key; it is the account the operator funds). One at a time, in order; a contract
 * already at its address is left alone, so running it again deploys nothing. Nobody owns these contracts and their
 * addresses depend only on their code and constructor arguments, so who sends the deployment does not matter.
 */
export async function deployOurContracts(deps: {
  chain: ChainConfig
  contracts: readonly OurContract[]
  publicClient: PublicClient
  deployer: LocalAccount
  logger: Logger
}): Promise<DeployContractsResult> {
  const { chain, publicClient, deployer } = deps
  const walletClient = createWalletClient({ chain: chainFromConfig(chain), account: deployer, transport: rpcHttp(chain.rpcUrl, { retryCount: 2 }) })
  const out: DeployContractsResult = { chain: chain.key, deployer: deployer.address, contracts: [] }
  for (const contract of deps.contracts) {
    const code = await publicClient.getCode({ address: contract.address })
    if (code !== undefined && code !== '0x') {
      out.contracts.push({ name: contract.name, address: contract.address, status: 'already_deployed' })
      continue
    }
    try {
      await ensureCreate2Contract({ publicClient, walletClient, salt: contract.salt, initCode: contract.initCode, name: contract.name })
    } catch (error) {
      if (error instanceof BaseError && error.walk((e) => e instanceof InsufficientFundsError)) {
        throw new PrebuyError(
          'bundler_unfunded',
          `The bundler account ${deployer.address} has too little ETH on ${chain.key} to deploy ${contract.name}: fund it and run this again.`,
          {
            details: { deployed: out.contracts.filter((c) => c.status === 'deployed').map((c) => c.name) },
          },
        )
      }
      throw error
    }
    deps.logger.info({ chain: chain.key, contract: contract.name, address: contract.address, deployer: deployer.address }, 'deployed our contract')
    out.contracts.push({ name: contract.name, address: contract.address, status: 'deployed' })
  }
  return out
}
