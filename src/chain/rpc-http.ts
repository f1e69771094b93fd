import { http, type HttpTransport, type HttpTransportConfig } from 'viem'
import { createRpcFetch } from './rpc-fetch.ts'

/** One keep-alive agent pair for the whole process: every transport to a node reuses its connections. */
const shared = createRpcFetch()

/**
 * viem's `http` transport with the daemon's lean fetch (rpc-fetch.ts says why). Every JSON-RPC HTTP transport of the
 * daemon is built here, so that none falls back to Node's `fetch` by omission.
 */
export function rpcHttp(url: string, config: Omit<HttpTransportConfig, 'fetchFn'> = {}): HttpTransport {
  return http(url, { ...config, fetchFn: shared.fetch })
}
