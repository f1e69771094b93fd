import { spawn } from 'node:child_process'
import type { ChildProcess } from 'node:child_process'
import { freePort } from '../support/free-port.ts'
import { fileURLToPath } from 'node:url'

/** A bare anvil for the sync/indexer/executor tests until (and besides) the shared devnet: started here, stopped in afterAll. */
export interface AnvilProcess {
  rpcUrl: string
  wsUrl: string
  port: number
  stop(): Promise<void>
}

const ANVIL_BIN = fileURLToPath(new URL('../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', import.meta.url))

export async function startAnvil(args: string[] = []): Promise<AnvilProcess> {
  const port = await freePort()
  const child: ChildProcess = spawn(ANVIL_BIN, ['--port', String(port), '--host', '127.0.0.1', '--silent', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const rpcUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 20_000
  for (;;) {
    try {
      const response = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      })
      if (response.ok) break
    } catch {
      // not listening yet
    }
    if (child.exitCode !== null) throw new Error(`anvil exited with ${child.exitCode}`)
    if (Date.now() > deadline) {
      child.kill('SIGKILL')
      throw new Error('anvil did not start')
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  return {
    rpcUrl,
    wsUrl: `ws://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      }),
  }
}
