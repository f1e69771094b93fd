import { createServer, type Server, type Socket } from 'node:net'
import { createPublicClient, http } from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { createChainBalanceReader } from '../../src/wallets/read-balances.ts'

/** A node that accepts connections and never answers (a hung provider, a stopped anvil). */
let server: Server
const sockets: Socket[] = []
let url: string
beforeAll(async () => {
  server = createServer((socket) => sockets.push(socket))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await new Promise((resolve) => server.close(resolve))
})

describe('balance reads against a node that stopped answering', () => {
  it('fail with chain_unavailable (503, Retry-After) at the deadline instead of hanging through the transport retries', async () => {
    const chain = {
      key: 'base',
      addresses: {
        stablecoin: '0x0000000000000000000000000000000000000001',
        weth: '0x0000000000000000000000000000000000000002',
        multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
      },
    } as unknown as ChainConfig
    const client = createPublicClient({ transport: http(url, { retryCount: 2, timeout: 60_000 }) })
    const reader = createChainBalanceReader(chain, client, { deadlineMs: 300 })
    const error = await reader.balances('0x000000000000000000000000000000000000dEaD', []).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'chain_unavailable', kind: 'unavailable', details: { retryAfterSeconds: 5 } })
    expect(sockets.length).toBeGreaterThan(0)
  })
})
