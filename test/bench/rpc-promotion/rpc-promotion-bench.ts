/**
 * What one JSON-RPC request leaves in V8's old generation (`npm run bench -- --only rpc-promotion`): the daemon's own
 * transport (src/chain/rpc-transport.ts) against viem's `http` (over Node's fetch), each in a child process under the
 * daemon's young-generation size with `--trace-gc-nvp`, V8's `promoted` bytes summed. The figure per request is the
 * difference between a long and a short run over the difference in requests, so start-up (module loading, the JIT) is
 * left out. Why it matters: bytes promoted bring the next full collection, whose pause is what an executor tick meets
 * (issue 23 item 4; docs/execution.md §8 "The RPC transport of our own").
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { YOUNG_GENERATION_FLAG } from '../../../daemon/process/bound-heap-growth.ts'
import type { BenchModule } from '../bench-module.ts'

/** Most promoted per request the daemon's transport may show: a kilobyte (viem's `http` showed several). */
export const PROMOTED_PER_REQUEST_TARGET_BYTES = 1_024

/** The sum of V8's `promoted=` figures in a `--trace-gc-nvp` output (bytes). */
export function promotedBytes(trace: string): number {
  let sum = 0
  for (const match of trace.matchAll(/\bpromoted=(\d+)/g)) sum += Number(match[1])
  return sum
}

export interface ClientRun {
  promoted: number
  /** The collections V8 traced in the run (start-up's among them). */
  collections: number
  msPerRequest: number
}

const CLIENT = join(import.meta.dirname, 'rpc-promotion-client.ts')

/** One child run: `requests` calls through `transport`; what V8 promoted in it and the time per request. */
export function runClient(transport: 'ours' | 'viem-http', requests: number): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [YOUNG_GENERATION_FLAG, '--trace-gc-nvp', '--import', 'tsx', CLIENT, transport, String(requests)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const line = stderr.trim().split('\n').at(-1) ?? ''
      if (code !== 0) return reject(new Error(`rpc-promotion client exited ${code}: ${stderr.slice(-2_000)}`))
      const { msPerRequest } = JSON.parse(line) as { msPerRequest: number }
      resolve({ promoted: promotedBytes(stdout), collections: stdout.match(/\bgc=/g)?.length ?? 0, msPerRequest })
    })
  })
}

export interface TransportFigures {
  /** Bytes promoted per request: (long run's - short run's) / (long - short), median over the rounds. */
  promotedPerRequestBytes: number
  /** Each round's figure, for the spread. */
  rounds: number[]
  /** The long runs' time per request, median, ms. */
  msPerRequest: number
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export async function measureTransport(transport: 'ours' | 'viem-http', short: number, long: number, rounds: number): Promise<TransportFigures> {
  const perRequest: number[] = []
  const ms: number[] = []
  for (let round = 0; round < rounds; round++) {
    const a = await runClient(transport, short)
    const b = await runClient(transport, long)
    perRequest.push(Math.round((b.promoted - a.promoted) / (long - short)))
    ms.push(b.msPerRequest)
  }
  return { promotedPerRequestBytes: median(perRequest), rounds: perRequest, msPerRequest: Number(median(ms).toFixed(3)) }
}

export const rpcPromotionBenchmark: BenchModule = {
  name: 'rpc-promotion',
  async run() {
    const short = Number(process.env.BENCH_RPC_SHORT ?? 2_000)
    const long = Number(process.env.BENCH_RPC_LONG ?? 12_000)
    const rounds = Number(process.env.BENCH_RPC_ROUNDS ?? 3)
    const ours = await measureTransport('ours', short, long, rounds)
    const viemHttp = await measureTransport('viem-http', short, long, rounds)
    return {
      note: `JSON-RPC eth_calls against a local server answering in 3 ms, 8 in flight, ${YOUNG_GENERATION_FLAG}; promoted per request = (run of ${long} - run of ${short}) / ${long - short}, median of ${rounds} (a figure near zero can come out slightly negative: the runs' start-ups differ by a few kB)`,
      ours,
      viemHttp,
      targets: {
        oursPromotedPerRequestBytes: {
          target: PROMOTED_PER_REQUEST_TARGET_BYTES,
          value: ours.promotedPerRequestBytes,
          met: ours.promotedPerRequestBytes <= PROMOTED_PER_REQUEST_TARGET_BYTES,
        },
      },
    }
  },
}
