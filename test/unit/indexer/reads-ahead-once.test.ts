import type { Address, Hash, Log, PublicClient } from 'viem'
import { describe, expect, it } from 'vitest'
import { createLaunchDetector } from '../../../daemon/indexer/detect-launch.ts'
import type { LaunchReadsAhead } from '../../../daemon/indexer/launch-reads-ahead.ts'
import type { LaunchpadAdapter } from '../../../src/launchpads/launchpad-adapter.ts'

const EMITTER = '0x00000000000000000000000000000000000000e1' as Address
const TX = `0x${'ab'.repeat(32)}` as Hash

describe("a launch log's reads ahead (detect-launch.ts readAhead)", () => {
  it("start once per log and block: the block's prefetch and the decoding's second ask share them; another log or block starts its own", async () => {
    let receipts = 0
    let decodings = 0
    const adapter = {
      id: 'doppler',
      launchEvent: { address: EMITTER },
      candidateAhead: () => undefined,
      decodeLaunch: async () => {
        decodings++
        return null
      },
    } as unknown as LaunchpadAdapter
    const clientOf = () =>
      ({
        getTransactionReceipt: async () => {
          receipts++
          throw new Error('not needed here')
        },
        getCode: async () => '0x',
      }) as unknown as PublicClient
    const block = clientOf()
    const detector = createLaunchDetector({ store: undefined as never, chain: {} as never, client: block, adapters: [adapter], stage: () => undefined })
    const log = (logIndex: number) =>
      ({ address: EMITTER, topics: [], data: '0x', transactionHash: TX, blockNumber: 5n, blockHash: TX, logIndex }) as unknown as Log
    const ahead = (client: PublicClient): LaunchReadsAhead => ({ client, blockLogs: [log(3), log(4)], creators: [] })
    const settle = () => new Promise((resolve) => setImmediate(resolve))

    detector.readAhead(log(3), 1n, ahead(block))
    // The decoding's ask: another reads-ahead object over the same block client.
    detector.readAhead(log(3), 1n, ahead(block))
    await settle()
    expect({ receipts, decodings }).toEqual({ receipts: 1, decodings: 1 })
    // Another launch log of the transaction, and the same log in another block's session (a reorg, a retry).
    detector.readAhead(log(4), 1n, ahead(block))
    detector.readAhead(log(3), 1n, ahead(clientOf()))
    await settle()
    expect({ receipts, decodings }).toEqual({ receipts: 3, decodings: 3 })
  })
})
