import { Agent, request } from 'node:http'

export interface PacedResult {
  targetRate: number
  sent: number
  completed: number
  non2xx: number
  errors: number
  achievedRate: number
  /** Latency from the scheduled send time (includes any queueing at the client: no coordinated omission). */
  p50Ms: number
  p99Ms: number
  maxMs: number
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

/**
 * Open-loop load at a fixed rate: request i is due at start + i / rate, sent on time whatever the previous ones
 * are doing (autocannon's rate mode sends each second's budget in a burst, which measures bursts, not a rate).
 */
export async function pacedLoad(options: { url: string; headers: Record<string, string>; rate: number; durationSeconds: number }): Promise<PacedResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const total = Math.round(options.rate * options.durationSeconds)
  const latencies: number[] = []
  let non2xx = 0
  let errors = 0
  let sent = 0
  const start = performance.now()
  const interval = 1000 / options.rate
  const inflight: Array<Promise<void>> = []

  const fire = (due: number) =>
    new Promise<void>((resolve) => {
      const req = request(options.url, { agent, headers: options.headers }, (res) => {
        res.resume()
        res.on('end', () => {
          latencies.push(performance.now() - due)
          if ((res.statusCode ?? 0) < 200 || (res.statusCode ?? 0) >= 300) non2xx += 1
          resolve()
        })
      })
      req.on('error', () => {
        errors += 1
        resolve()
      })
      req.end()
    })

  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now()
      while (sent < total && start + sent * interval <= now) {
        inflight.push(fire(start + sent * interval))
        sent += 1
      }
      if (sent >= total) done()
      // A 1 ms timer, not setImmediate: a busy loop would take a core from the server on a small machine.
      else setTimeout(tick, 1)
    }
    tick()
  })
  await Promise.all(inflight)
  const elapsed = (performance.now() - start) / 1000
  agent.destroy()
  const sorted = [...latencies].sort((a, b) => a - b)
  const round = (value: number) => Number(value.toFixed(2))
  return {
    targetRate: options.rate,
    sent,
    completed: latencies.length,
    non2xx,
    errors,
    achievedRate: Math.round(latencies.length / elapsed),
    p50Ms: round(percentile(sorted, 50)),
    p99Ms: round(percentile(sorted, 99)),
    maxMs: round(sorted.at(-1) ?? 0),
  }
}
