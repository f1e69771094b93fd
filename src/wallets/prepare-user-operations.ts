import type { PublicClient } from 'viem'
import type { ChainConfig } from '../chain/chain-keys.ts'
import type { SmartAccountProvider } from './accounts/operation-account.ts'
import { createAccountStateCache, type AccountStateCache } from './account-state-cache.ts'
import type { GasPolicy } from './gas-policy.ts'
import type { NonceStreams } from './nonce-streams.ts'
import { createAccountReads } from './prepare/account-reads.ts'
import { deployAhead } from './prepare/deploy-ahead.ts'
import { createDeploymentClaims } from './prepare/deployment-claims.ts'
import type { OperationPreparer } from './prepare/operation-preparer.ts'
import { prepareBatch } from './prepare/prepare-batch.ts'
import type { PreparerContext } from './prepare/preparer-context.ts'
import { createChunkSigner } from './prepare/sign-chunks.ts'
import { warmAccounts } from './prepare/warm-accounts.ts'

export interface PreparerOptions {
  chain: ChainConfig
  client: PublicClient
  provider: SmartAccountProvider
  streams: NonceStreams
  /** Fills gas limits and fees: zero-fee for our own bundler, market prices for an external one. */
  gasPolicy: GasPolicy
  /** States read ahead by `warm` (default: a cache whose entries live 10 minutes). */
  accountStates?: AccountStateCache
}

/**
 * Turns call lists into signed v0.7 UserOperations: nonce (a 2D-nonce stream per operation in flight), initCode when
 * needed, callData, then gas and fees from the gas policy, then the owner's signature.
 *
 * Chain reads are batched: the deployment status of every account is one eth_call (a code-size reader placed by
 * state override) and every nonce is one Multicall3 of EntryPoint.getNonce; both travel
 * concurrently. Then operations are signed chunk by chunk and each chunk is handed on at once, so the first handleOps
 * goes out while later chunks are still being signed.
 *
 * Deployment: an account without code gets initCode on exactly one operation at a time. Within a batch that is its
 * first operation (validation runs in order, so the later ones find it deployed; they are kept in the same chunk,
 * whose simulation would otherwise not see the deployment); across concurrent batches the later batch waits for the
 * earlier one's deployment to settle, because two initCodes for one sender would make the second handleOps revert
 * (AA10) and take every other operation of its bundle down with it.
 *
 * The parts live in prepare/: account reads, deployment claims, chunk planning, chunked signing, warm-up and
 * deployments ahead; they share one PreparerContext.
 */
export function createOperationPreparer(options: PreparerOptions): OperationPreparer {
  const { chain, client, provider, streams } = options
  const ctx: PreparerContext = {
    chain,
    provider,
    streams,
    states: options.accountStates ?? createAccountStateCache({ maxAgeMs: 10 * 60_000 }),
    reads: createAccountReads({ chain, client }),
    claims: createDeploymentClaims(),
    signer: createChunkSigner({ chain, gasPolicy: options.gasPolicy }),
  }
  let rehearsed = false
  return {
    warm: (userIndexes) => warmAccounts(ctx, userIndexes),
    forgetWarm: () => ctx.states.clear(),
    async rehearse(userIndex, calls) {
      if (rehearsed) return
      rehearsed = true
      const account = await provider.account(chain.key, userIndex)
      // Nonce 0 and no deployment: nothing is sent, only the code paths of a real operation run.
      await ctx.signer.sign([0], { requests: [{ userIndex, calls, id: 'rehearsal' }], accounts: [account], nonces: [0n], deploys: [false] })
    },
    deployAhead: (userIndexes, deploy) => deployAhead(ctx, userIndexes, deploy),
    prepare: (requests, prepareOptions) => prepareBatch(ctx, requests, prepareOptions),
  }
}
