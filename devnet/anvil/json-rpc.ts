import { PrebuyError } from '../../src/common/errors.ts'

/**
 * How long a local anvil may take to answer. A live anvil answers these calls in milliseconds, but on a loaded 2-core
 * machine a starved one took more than 5 s to answer `anvil_impersonateAccount` (2026-11-26, eight busy loops beside a
 * devnet on 200 ms blocks: start-up failed). A dead anvil is noticed by its supervisor, not by this timeout.
 */
export const JSON_RPC_TIMEOUT_MS = 30_000

/**
 * A bare JSON-RPC call over HTTP for the anvil-specific methods (health check, mining mode, cheat codes). Kept apart
 * from viem clients because those are built per chain config and these calls happen before one exists.
 */
export async function jsonRpc<T = unknown>(url: string, method: string, params: unknown[] = [], timeoutMs = JSON_RPC_TIMEOUT_MS): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(timeoutMs),
  })
  if (!response.ok) {
    throw new PrebuyError('rpc_http_error', `JSON-RPC ${method} failed with HTTP ${response.status}.`)
  }
  const body = (await response.json()) as { result?: T; error?: { code: number; message: string } }
  if (body.error) {
    throw new PrebuyError('rpc_error', `JSON-RPC ${method} failed: ${body.error.message}`, {
      details: { code: body.error.code },
    })
  }
  return body.result as T
}
