import type { HttpTransport } from 'viem'
import { createRpcPoster } from './rpc-post.ts'
import { createRpcTransport, type RpcTransportConfig } from './rpc-transport.ts'

/** One keep-alive agent pair for the whole process: every transport to a node reuses its connections. */
const shared = createRpcPoster()

/**
 * The daemon's JSON-RPC HTTP transport to `url` (rpc-transport.ts says why it is not viem's `http`). Every JSON-RPC HTTP
 * transport of the daemon is built here, so that none falls back to viem's `http` and Node's `fetch` by omission.
 */
export function rpcHttp(url: string, config: RpcTransportConfig = {}): HttpTransport {
  return createRpcTransport(url, shared, config)
}
