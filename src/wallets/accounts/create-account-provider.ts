import type { ChainConfig, ChainKey } from '../../chain/chain-keys.ts'
import type { KeyStore } from '../keys/key-store.ts'
import { createKernelAccountProvider } from './kernel-account-provider.ts'
import type { SmartAccountKind, SmartAccountProvider } from './operation-account.ts'
import { createSimpleAccountProvider } from './simple-account-provider.ts'

/** The account-type switch: the rest of the wallet code sees only SmartAccountProvider. */
export function createAccountProvider(deps: { kind: SmartAccountKind; chains: Record<ChainKey, ChainConfig>; keys: KeyStore }): SmartAccountProvider {
  return deps.kind === 'kernel' ? createKernelAccountProvider(deps) : createSimpleAccountProvider(deps)
}
