import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * A local HTTP server standing in for a JSON-RPC node or provider: each request's body, parsed as JSON, is handed to
 * `onBody` with the response to answer it on. Listens on 127.0.0.1, on a port the system picks.
 */
export async function startJsonBodyServer<Body = unknown>(
  onBody: (body: Body, response: ServerResponse, request: IncomingMessage) => void,
): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => onBody(JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body, response, request))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}
