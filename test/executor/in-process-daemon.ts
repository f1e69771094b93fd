import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type RunningDaemon, startDaemon } from '../../daemon/start-daemon.ts'
import { type AdminClient, createAdminClient } from '../../src/admin-client/admin-client.ts'
import { silentLogger } from '../../src/common/logger.ts'
import { loadConfig } from '../../src/config/load-config.ts'
import type { PrebuyConfig } from '../../src/config/config.ts'
import { freePort } from '../support/free-port.ts'

const PUBLIC = '/api/public/v1'

/** A call of the public API: the answer's status and JSON body. */
export type PublicCall = (method: string, path: string, apiKey?: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>

/** The real daemon started in this process on the 200 ms devnet, with its admin client and a public API caller. */
export interface InProcessDaemon {
  dataDir: string
  /** The configuration the daemon was started with (config.json and the flags, loaded as `prebuy daemon start` does). */
  config: PrebuyConfig
  daemon: RunningDaemon
  admin: AdminClient
  call: PublicCall
  /** Stops the daemon and removes its data dir. */
  stop(): Promise<void>
}

export interface InProcessDaemonOptions {
  /** The data dir's prefix in the temp dir. */
  prefix: string
  /** config.json besides `chains: { mode: 'devnet', blockTime: 0.2 }`. */
  config?: Record<string, unknown>
  /** startDaemon's `onFatal`. */
  onFatal?: (error: Error) => void
}

/** Starts the daemon on a fresh data dir with free ports (start-daemon.ts), as `prebuy daemon start` would. */
export async function startInProcessDaemon(options: InProcessDaemonOptions): Promise<InProcessDaemon> {
  const dataDir = await mkdtemp(join(tmpdir(), options.prefix))
  let daemon: RunningDaemon | undefined
  try {
    await writeFile(join(dataDir, 'config.json'), JSON.stringify({ chains: { mode: 'devnet', blockTime: 0.2 }, ...options.config }))
    const port = await freePort()
    const config = await loadConfig({ flags: { dataDir, port: String(port) }, env: {} } as never)
    daemon = await startDaemon({ ...config, adminPort: await freePort() }, { logger: silentLogger, ...(options.onFatal ? { onFatal: options.onFatal } : {}) })
    const admin = createAdminClient({ adminUrl: daemon.adminUrl, operatorToken: (await readFile(join(dataDir, 'operator-token'), 'utf8')).trim() })
    const running = daemon
    const call: PublicCall = async (method, path, apiKey, body) => {
      const response = await fetch(`${running.url}${PUBLIC}${path}`, {
        method,
        headers: { ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      })
      return { status: response.status, body: (await response.json()) as Record<string, unknown> }
    }
    return {
      dataDir,
      config,
      daemon,
      admin,
      call,
      async stop() {
        await running.stop()
        await rm(dataDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await daemon?.stop()
    await rm(dataDir, { recursive: true, force: true })
    throw error
  }
}
