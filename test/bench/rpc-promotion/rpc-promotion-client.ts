/**
 * The child process of the rpc-promotion bench (rpc-promotion-bench.ts): a local JSON-RPC server answering every
 * `eth_call` after 3 ms, and `requests` calls through one transport with 8 in flight (a launch's regime: many requests
 * in flight, young collections every few milliseconds). Run under `--trace-gc-nvp` by the bench, which sums what V8
 * says it promoted. Prints one JSON line: `{ transport, requests, msPerRequest }`.
 *
 * `node --import tsx rpc-promotion-client.ts <ours|viem-http> <requests>`
 */
import { createPublicClient, http } from 'viem'
import { rpcHttp } from '../../../src/chain/rpc-http.ts'
import { startJsonBodyServer } from '../../support/json-body-server.ts'

const IN_FLIGHT = 8
const ANSWER_DELAY_MS = 3

const [kind = 'ours', count = '1000'] = process.argv.slice(2)
if (kind !== 'ours' && kind !== 'viem-http') throw new Error(`transport must be ours or viem-http, got ${kind}`)
const requests = Number(count)

const { server, url } = await startJsonBodyServer<{ id: number }>((call, response) => {
  setTimeout(() => {
    // An answer of an eth_call's usual size (a 200-byte return).
    const body = JSON.stringify({ jsonrpc: '2.0', id: call.id, result: `0x${'12'.repeat(200)}` })
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body)
  }, ANSWER_DELAY_MS)
})
// viem's own `http` over Node's fetch is what the daemon used before the ninth session; the comparison the bench makes.
const client = createPublicClient({ transport: kind === 'ours' ? rpcHttp(url, { retryCount: 0 }) : http(url, { retryCount: 0 }) })

const started = performance.now()
let asked = 0
const worker = async () => {
  while (asked < requests) {
    asked++
    await client.call({ to: '0x0000000000000000000000000000000000000001', data: '0x12345678' })
  }
}
await Promise.all(Array.from({ length: IN_FLIGHT }, worker))
const msPerRequest = (performance.now() - started) / requests
process.stderr.write(`${JSON.stringify({ transport: kind, requests, msPerRequest })}\n`)
server.closeAllConnections()
server.close()
process.exit(0)
