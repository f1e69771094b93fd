import { type Address, erc20Abi, isAddressEqual, type Log, type PublicClient, parseAbi } from 'viem'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import type { Logger } from '../../src/common/logger.ts'
import type { Launchpad, ProjectRecord } from '../../src/domain/records.ts'
import type { LaunchRecord } from '../../src/journal/journal-records.ts'
import { launchDeployer } from '../../src/launchpads/launch-deployer.ts'
import type { LaunchCandidate, LaunchContext, LaunchIdentity, LaunchpadAdapter, PairedAsset } from '../../src/launchpads/launchpad-adapter.ts'
import { loadLaunchContext } from '../../src/launchpads/load-launch-context.ts'
import type { Store } from '../../src/store/open-store.ts'
import { projectsIn, waitingLaunchpads } from '../../src/store/project-index.ts'
import type { PoolState } from './compute-price-tick.ts'

const STATE_VIEW = parseAbi([
  'function getSlot0(bytes32 poolId) view returns (uint160 sqrtPriceX96, int24 tick, uint24 protocolFee, uint24 lpFee)',
  'function getLiquidity(bytes32 poolId) view returns (uint128)',
])

/** A registered project's launch, recognised in a block: its record, the project and the pool's state at launch. */
export interface DetectedLaunch {
  record: LaunchRecord
  project: ProjectRecord
  state: PoolState
}

export interface LaunchDetector {
  /** The adapter whose launch event `log` may be (by emitter). */
  adapterOf(log: Log): LaunchpadAdapter | undefined
  /**
   * Launchpads with a registered project still waiting to launch on this chain: launch logs of the others (most
   * launches on a busy chain are not ours) are skipped without fetching their receipts.
   */
  waitingLaunchpads(): Promise<Set<Launchpad>>
  /**
   * Decodes a launch log, matches it with a project waiting to launch, and reads what its launch record needs (fee
   * schedule, token metadata, pool liquidity at the launch block), all in one round. Undefined when the log is not a
   * launch this chain's adapters understand or no waiting project matches it.
   */
  detect(log: Log, blockTimestamp: bigint, prefetchPrice: (paired: PairedAsset) => Promise<unknown>): Promise<DetectedLaunch | undefined>
}

export interface LaunchDetectorDeps {
  store: Store
  chain: ChainConfig
  client: PublicClient
  adapters: readonly LaunchpadAdapter[]
  log: Logger
  stage(name: string): void
}

export function createLaunchDetector(deps: LaunchDetectorDeps): LaunchDetector {
  const { store, chain, client, adapters, log, stage } = deps
  const adapterOf = (entry: Log) => adapters.find((a) => isAddressEqual(a.launchEvent.address, entry.address))

  /** decodeLaunch's context: the transaction's receipt; the block's time is already known from the sync. */
  async function launchContext(entry: Log, blockTimestamp: bigint): Promise<LaunchContext> {
    if (entry.transactionHash === null || entry.blockNumber === null || entry.blockHash === null) return loadLaunchContext(client, entry)
    const receipt = await client.getTransactionReceipt({ hash: entry.transactionHash })
    return {
      client,
      txHash: entry.transactionHash,
      blockNumber: entry.blockNumber,
      blockHash: entry.blockHash,
      blockTimestamp: Number(blockTimestamp),
      txFrom: receipt.from,
      deployer: launchDeployer(receipt.from, receipt.logs, entry),
      txLogs: receipt.logs,
    }
  }

  /** The waiting project a launch belongs to: the one whose registered deployer sent it (nobody else can forge that). */
  async function matchProject(launch: LaunchIdentity): Promise<ProjectRecord | undefined> {
    return (await projectsIn(store, chain.key, 'waiting', launch.launchpad)).find((project) =>
      isAddressEqual(project.creatorAddress as Address, launch.deployer),
    )
  }

  /** The pool's price and liquidity at the end of the launch block: after any dev buy or initial purchase in it. */
  async function poolStateAt(candidate: LaunchCandidate): Promise<PoolState> {
    const [slot0, liquidity] = await Promise.all([
      client.readContract({
        address: chain.addresses.stateView,
        abi: STATE_VIEW,
        functionName: 'getSlot0',
        args: [candidate.poolId],
        blockNumber: candidate.blockNumber,
      }),
      client.readContract({
        address: chain.addresses.stateView,
        abi: STATE_VIEW,
        functionName: 'getLiquidity',
        args: [candidate.poolId],
        blockNumber: candidate.blockNumber,
      }),
    ])
    return { sqrtPriceX96: slot0[0], liquidity }
  }

  async function readTokenMeta(token: Address) {
    const [name, symbol, decimals, totalSupply] = await Promise.all([
      client.readContract({ address: token, abi: erc20Abi, functionName: 'name' }),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'symbol' }),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'decimals' }),
      client.readContract({ address: token, abi: erc20Abi, functionName: 'totalSupply' }),
    ])
    return { name, symbol, decimals, totalSupply }
  }

  return {
    adapterOf,
    waitingLaunchpads: () => waitingLaunchpads(store, chain.key),
    async detect(entry, blockTimestamp, prefetchPrice) {
      const adapter = adapterOf(entry)
      if (!adapter) return undefined
      const ctx = await launchContext(entry, blockTimestamp)
      stage('indexer.launchContext')
      const decoded = await adapter.decodeLaunch(entry, ctx)
      stage('indexer.decodeLaunch')
      if (!decoded) return undefined
      const identity = decoded.kind === 'launch' ? decoded.candidate : decoded.launch
      const project = await matchProject(identity)
      stage('indexer.matchProject')
      if (!project) {
        log.debug({ token: identity.token, launchpad: identity.launchpad, deployer: identity.deployer }, 'launch of an unregistered deployer')
        return undefined
      }
      if (decoded.kind === 'unsupported') {
        log.warn({ slug: project.slug, token: identity.token, reason: decoded.reason }, 'the project launched in a way prebuy cannot buy')
        return undefined
      }
      const candidate = decoded.candidate
      // Every read the launch needs in one round: fee schedule, token metadata, pool state, and the block's paired price
      // (the launch tick's), all independent.
      void prefetchPrice(candidate.paired).catch(() => undefined)
      const [schedule, meta, state] = await Promise.all([adapter.loadFeeSchedule(client, candidate), readTokenMeta(candidate.token), poolStateAt(candidate)])
      stage('indexer.feeScheduleMetaLiquidity')
      const record: LaunchRecord = {
        slug: project.slug,
        chain: chain.key,
        launchpad: candidate.launchpad,
        token: candidate.token,
        symbol: candidate.symbol ?? meta.symbol,
        name: candidate.name ?? meta.name,
        decimals: meta.decimals,
        totalSupply: meta.totalSupply.toString(),
        paired: candidate.paired,
        poolKey: candidate.poolKey,
        poolId: candidate.poolId,
        feeSources: candidate.feeSources,
        feeSchedule: schedule,
        blockNumber: candidate.blockNumber.toString(),
        blockHash: candidate.blockHash,
        txHash: candidate.txHash,
        launchedAt: candidate.launchedAt * 1000,
      }
      return { record, project, state }
    },
  }
}
