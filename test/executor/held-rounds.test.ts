import { createServer, type Server } from 'node:http'
import { afterEach, expect, it } from 'vitest'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { createHeldRounds } from './held-rounds.ts'

/**
 * The held rounds' own rule, against a real HTTP JSON-RPC server whose answers the test orders: round 1 starts at the
 * first head read answered with the armed block, whenever it was asked. Stop 40's CI failed the Clanker v4 gate test
 * because a head read asked before `arm` and answered after the block was mined (late, on a busy machine) armed
 * nothing: the daemon did the block's work unseen and round 1 began at the send.
 */
let server: Server | undefined
afterEach(() => {
  server?.close()
  server = undefined
})

interface Asked {
  method: string
  answer: () => void
}

async function startNode(head: () => number, onRequest: (asked: Asked) => void): Promise<string> {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk) => {
      body += chunk
    })
    req.on('end', () => {
      const { id, method } = JSON.parse(body) as { id: number; method: string }
      // The head as it is when the node answers, not when it was asked.
      const block = () => ({
        number: `0x${head().toString(16)}`,
        hash: `0x${'11'.repeat(32)}`,
        parentHash: `0x${'22'.repeat(32)}`,
        logsBloom: `0x${'00'.repeat(256)}`,
      })
      onRequest({ method, answer: () => res.end(JSON.stringify({ jsonrpc: '2.0', id, result: method === 'eth_getBlockByNumber' ? block() : '0x1' })) })
    })
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`
}

it('a head read asked before arm and answered with the armed block starts round 1', async () => {
  let head = 1
  const headRead = withResolvers<Asked>()
  const next = withResolvers<Asked>()
  const url = await startNode(
    () => head,
    (asked) => (asked.method === 'eth_getBlockByNumber' ? headRead : next).resolve(asked),
  )
  const rounds = createHeldRounds()
  const client = rounds.daemonClient(url)

  const read = client.request({ method: 'eth_getBlockByNumber', params: ['latest', false] } as never)
  const atNode = await headRead.promise
  // Armed while the read is at the node; the block is mined before the node answers it.
  rounds.arm(2n)
  head = 2
  atNode.answer()
  expect(BigInt(((await read) as { number: string }).number)).toBe(2n)

  // The daemon's next request is the block's work: asked in round 1 and held there.
  const work = client.request({ method: 'eth_blockNumber' } as never)
  ;(await next.promise).answer()
  expect(rounds.roundOf(1).map((a) => a.method)).toEqual(['eth_blockNumber'])
  rounds.disarm()
  expect(await work).toBe('0x1')
})

it('a head read answered below the armed block starts nothing', async () => {
  const url = await startNode(
    () => 1,
    (asked) => asked.answer(),
  )
  const rounds = createHeldRounds()
  const client = rounds.daemonClient(url)
  rounds.arm(2n)
  await client.request({ method: 'eth_getBlockByNumber', params: ['latest', false] } as never)
  await client.request({ method: 'eth_blockNumber' } as never)
  expect(rounds.asked).toEqual([])
})
