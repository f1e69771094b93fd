import type { PrebuyConfig } from './config.ts'

/**
 * Node-provider URLs often carry an API key in the path or query (https://base.example/v2/KEY), or credentials in
 * userinfo: keep the scheme and host, mask the rest.
 */
export function maskUrl(value: string): string {
  try {
    const url = new URL(value)
    const hidden = url.pathname.length > 1 || url.search !== '' || url.username !== '' || url.password !== ''
    return `${url.protocol}//${url.host}${hidden ? '/…' : ''}`
  } catch {
    return '…'
  }
}

/** A printable view of the config for logs and status: no passphrase, node URLs masked. */
export function describeConfig(config: PrebuyConfig): Omit<PrebuyConfig, 'passphrase'> {
  const { passphrase: _secret, ...rest } = config
  if (rest.chains.mode !== 'rpc') return rest
  const chains = { ...rest.chains }
  for (const key of ['base', 'second_chain'] as const) {
    const chain = chains[key]
    if (chain === undefined) continue
    chains[key] = {
      ...chain,
      rpcUrl: maskUrl(chain.rpcUrl),
      wsUrl: maskUrl(chain.wsUrl),
      ...(chain.bundlerUrl === undefined ? {} : { bundlerUrl: maskUrl(chain.bundlerUrl) }),
      ...(chain.readRpcUrl === undefined ? {} : { readRpcUrl: maskUrl(chain.readRpcUrl) }),
    }
  }
  return { ...rest, chains }
}
