import { rm, writeFile } from 'node:fs/promises'
import { daemonFilePath, type DaemonFile } from '../../src/config/daemon-files.ts'

/** Announces the running daemon to the CLI. Written only once both servers listen, so its presence means "ready". */
export async function writeDaemonFile(dataDir: string, content: DaemonFile): Promise<void> {
  await writeFile(daemonFilePath(dataDir), `${JSON.stringify(content, null, 2)}\n`, { mode: 0o644 })
}

export async function removeDaemonFile(dataDir: string): Promise<void> {
  await rm(daemonFilePath(dataDir), { force: true })
}
