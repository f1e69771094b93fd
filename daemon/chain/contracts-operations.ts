import type { LocalAccount, PublicClient } from 'viem'
import type { ChainConfig, ChainKey } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { ContractsOperations } from '../admin/contracts-routes.ts'
import type { ContractsWatch } from './contracts-watch.ts'
import { deployOurContracts } from './deploy-our-contracts.ts'
import type { OurContract } from './our-contracts.ts'

/**
 * `prebuy contracts deploy` for the running daemon: refused on devnet (it deployed its own at start) and for a chain it
 * does not run on; otherwise one deployment at a time (two concurrent runs would send the same CREATE2 deployment
 * twice), then the watch re-reads so the daemon starts buying at once instead of at its next periodic check.
 */
export function createContractsOperations(deps: {
  devnet: boolean
  ours: Partial<Record<ChainKey, OurContract[]>>
  chains: Record<ChainKey, ChainConfig>
  clients: Partial<Record<ChainKey, PublicClient>>
  deployer: () => LocalAccount
  watch: ContractsWatch
  logger: Logger
}): ContractsOperations {
  let deploying: Promise<unknown> = Promise.resolve()
  return {
    async deploy(chain) {
      if (deps.devnet) throw new PrebuyError('not_on_devnet', 'The devnet daemon deploys its own contracts when it starts: nothing to deploy.')
      const contracts = deps.ours[chain]
      const publicClient = deps.clients[chain]
      if (!contracts || !publicClient) {
        throw new PrebuyError('chain_disabled', `This daemon does not run on ${chain}: it is disabled in its configuration.`)
      }
      const run = deploying.then(async () => {
        const result = await deployOurContracts({ chain: deps.chains[chain], contracts, publicClient, deployer: deps.deployer(), logger: deps.logger })
        await deps.watch.refresh()
        return result
      })
      deploying = run.catch(() => undefined)
      return run
    },
  }
}
