import type { ChainConfig } from '../../chain/chain-keys.ts'
import type { SmartAccountProvider } from '../accounts/operation-account.ts'
import type { AccountStateCache } from '../account-state-cache.ts'
import type { NonceStreams } from '../nonce-streams.ts'
import type { AccountReads } from './account-reads.ts'
import type { DeploymentClaims } from './deployment-claims.ts'
import type { ChunkSigner } from './sign-chunks.ts'

/** What the parts of one chain's operation preparer share. */
export interface PreparerContext {
  chain: ChainConfig
  provider: SmartAccountProvider
  /** 2D-nonce streams in flight, shared by both chains' preparers. */
  streams: NonceStreams
  /** Account states read ahead by `warm`. */
  states: AccountStateCache
  reads: AccountReads
  /** Wallets being deployed, by an operation's initCode or a deployment ahead. */
  claims: DeploymentClaims
  signer: ChunkSigner
}
