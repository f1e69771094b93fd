import { getAddress, keccak256, toHex } from 'viem'
import { PrebuyError } from '../../common/errors.ts'
import type { DevBuyLaunchRecord, DevBuyLaunchState, DevBuyParams, DevBuyPoolShape, ProjectRecord } from '../../domain/records.ts'
import type { DevBuyChain } from './chain/dev-buy-chain.ts'
import type { Store } from '../../store/open-store.ts'
import { projectWriteOps } from '../../store/project-writes.ts'
import type { Clock } from '../../services/clock.ts'
import { validateLockTerms } from '../vesting/domain/lock-terms.ts'
import { devBuyTextSchema } from '../../domain/dev-buy-text.ts'
import { PROJECT_LOCK } from '../../services/project-service.ts'
import { type LaunchMethodActor, ownedProjectOfMethod } from '../owned-project-of-method.ts'

/** PATCH /projects/{slug}/dev-buy: the token's identity, as the owner sends it. */
export interface DevBuyParamsInput {
  name: string
  symbol: string
  image?: string
  metadata?: string
  /** The token's admin on the launchpad; the owner key's wallet when left out. */
  tokenAdmin?: string
  /** Lock and vesting of the buyers' shares after the launch block, seconds (absent: 0; both 0: no lock). */
  lockSeconds?: number
  vestingSeconds?: number
  /** The launchpad settings (absent: the chain's defaults): Clanker's starting tick, LP positions and static fee. */
  pool?: { startingTick: number; positions: Array<{ tickLower: number; tickUpper: number; bps: number }>; lpFeeBps: number }
}

/** Who acts on a dev-buy launch: the project's owner key (public API), or the operator on its behalf (admin API, CLI). */
export type DevBuyActor = LaunchMethodActor

export interface DevBuyService {
  /**
   * The owner sets (or replaces) the token's parameters of a dev_buy project: until the launch is asked for, and again
   * once an attempt could not proceed (retrying, not_launched; a change withdraws a retrying launch's request).
   */
  setParams(slug: string, actor: DevBuyActor, input: DevBuyParamsInput): Promise<ProjectRecord>
  /**
   * Asks the daemon to launch: the dev-buy worker deploys the token with one block-zero buy for the orders that can take
   * part (docs/launch-methods.md). Idempotent: asking again while it launches, or after it launched, changes nothing.
   */
  launch(slug: string, actor: DevBuyActor): Promise<ProjectRecord>
}

export interface DevBuyServiceDeps {
  store: Store
  now: Clock
  /** Absent: this daemon has no chain access for dev buys (tests of other parts); every dev-buy call is refused. */
  chain?: DevBuyChain
}

/** The launch's id on the coordinator: one per project (an attempt that launched nothing left no mark on chain). */
export const devBuyLaunchId = (slug: string): string => keccak256(toHex(`prebuy-dev-buy:${slug}`))

export function createDevBuyService({ store, now, chain }: DevBuyServiceDeps): DevBuyService {
  const ownedDevBuyProject = async (slug: string, actor: DevBuyActor): Promise<ProjectRecord> => {
    const project = await ownedProjectOfMethod(store, slug, actor, {
      launchMethod: 'dev_buy',
      wrongMethod: 'not_dev_buy_project',
      what: 'dev-buy launch',
    })
    if (!chain?.coordinator(project.chain) || project.launchpad !== 'clanker') {
      throw new PrebuyError('dev_buy_unavailable', `This service has no dev-buy launch for ${project.launchpad} on ${project.chain}.`)
    }
    return project
  }
  const write = async (project: ProjectRecord, devBuy: DevBuyLaunchRecord): Promise<ProjectRecord> => {
    const next: ProjectRecord = { ...project, devBuy, updatedAt: now() }
    await store.batch(projectWriteOps(store, project, next))
    return next
  }

  return {
    async setParams(slug, actor, input) {
      await ownedDevBuyProject(slug, actor)
      // The same rule as the API bodies (domain/dev-buy-text.ts), again here for any caller that skipped them.
      const text = devBuyTextSchema.safeParse({ name: input.name, symbol: input.symbol, image: input.image, metadata: input.metadata })
      if (!text.success) {
        const issue = text.error.issues[0]
        throw new PrebuyError('invalid_dev_buy_params', `${issue?.path.join('.') ?? 'parameters'}: ${issue?.message ?? 'invalid'}`)
      }
      const lock = validateLockTerms(input)
      return store.mutex.run(PROJECT_LOCK, async () => {
        const project = await ownedDevBuyProject(slug, actor)
        const pool = input.pool === undefined ? undefined : poolShape(project, input.pool)
        const previous = project.devBuy
        if (previous?.state?.status === 'launched') throw new PrebuyError('dev_buy_launched', 'The token is launched: its parameters no longer change.')
        // Under way: asked for and not yet back (the worker may be moving the orders), or launching. A launch that could
        // not proceed (retrying, not_launched) is back: its orders are active and its parameters change again.
        if (previous && (previous.state?.status === 'launching' || (previous.requestedAt !== null && previous.state === null))) {
          throw new PrebuyError('dev_buy_requested', 'The launch is under way: its parameters no longer change.')
        }
        let tokenAdmin: string
        try {
          tokenAdmin = input.tokenAdmin !== undefined ? getAddress(input.tokenAdmin) : await ownerWallet(project)
        } catch (error) {
          if (error instanceof PrebuyError) throw error
          throw new PrebuyError('invalid_address', `"${input.tokenAdmin}" is not a valid address.`)
        }
        const params: DevBuyParams = {
          name: text.data.name,
          symbol: text.data.symbol,
          image: text.data.image ?? '',
          metadata: text.data.metadata ?? '',
          tokenAdmin,
          lock,
          ...(pool ? { pool } : {}),
        }
        // New parameters withdraw a retrying launch's request (the worker checks the record it read is still the one
        // it launches): the owner asks again for a launch with them. Why the last attempt failed stays shown.
        const state: DevBuyLaunchState | null =
          previous?.state?.status === 'retrying' ? { status: 'not_launched', reason: previous.state.reason, at: now() } : (previous?.state ?? null)
        return write(project, { ...previous, launchId: devBuyLaunchId(slug), params, requestedAt: null, state })
      })
    },

    async launch(slug, actor) {
      await ownedDevBuyProject(slug, actor)
      return store.mutex.run(PROJECT_LOCK, async () => {
        const project = await ownedDevBuyProject(slug, actor)
        const launch = project.devBuy
        if (!launch) throw new PrebuyError('dev_buy_no_params', 'Set the launch parameters first (PATCH /projects/{slug}/dev-buy).')
        if (launch.requestedAt !== null || launch.state?.status === 'launched') return project
        if (project.launch !== null) throw new PrebuyError('dev_buy_launched', 'The project has launched already.')
        return write(project, { ...launch, requestedAt: now(), state: null })
      })
    },
  }

  function poolShape(project: ProjectRecord, input: NonNullable<DevBuyParamsInput['pool']>): DevBuyPoolShape {
    const shape: DevBuyPoolShape = {
      startingTick: input.startingTick,
      positions: input.positions.map((p) => ({ tickLower: p.tickLower, tickUpper: p.tickUpper, bps: p.bps })),
      lpFeePips: input.lpFeeBps * 100,
    }
    const problem = chain!.poolShapeProblem(project.chain, shape)
    if (problem) throw new PrebuyError('invalid_dev_buy_params', `pool: ${problem}.`)
    return shape
  }

  async function ownerWallet(project: ProjectRecord): Promise<string> {
    const key = project.ownerKeyId === null ? undefined : await store.sub.keys.get(project.ownerKeyId)
    if (!key) throw new PrebuyError('invalid_dev_buy_params', 'The project has no owner key: name the tokenAdmin address.')
    return getAddress(key.walletAddress)
  }
}
