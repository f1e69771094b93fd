import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { api, childPids, freePortPair, isAlive, readJson, spawnAndWait, type SpawnedDaemon } from '../daemon/helpers.ts'

let dataDir: string | undefined
let started: SpawnedDaemon | undefined

afterAll(async () => {
  // Whatever failed above, leave no daemon behind: npm may be gone while its child still runs.
  if (dataDir) {
    const pid = await readJson<{ pid: number }>(join(dataDir, 'daemon.json')).then(
      (file) => file.pid,
      () => undefined,
    )
    if (pid !== undefined && isAlive(pid)) process.kill(pid, 'SIGTERM')
  }
  if (started && started.process.exitCode === null && started.process.signalCode === null) {
    started.process.kill('SIGTERM')
    await started.exited
  }
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

describe('npm start', () => {
  it('starts the daemon from DATA_DIR and PORT, serves the API, and stops on SIGTERM with nothing left behind', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'prebuy-npm-start-'))
    const port = await freePortPair()
    started = await spawnAndWait('npm', ['start', '--silent'], { env: { DATA_DIR: dataDir, PORT: String(port) }, ready: /prebuy daemon ready/ })
    const file = await readJson<{ pid: number; url: string; adminUrl: string }>(join(dataDir, 'daemon.json'))
    expect(file.url).toBe(`http://127.0.0.1:${port}`)
    expect(file.adminUrl).toBe(`http://127.0.0.1:${port + 1}`)
    const openapi = await api(file.url, 'GET', '/api/public/v1/openapi.json')
    expect(openapi.status).toBe(200)
    const key = await api(file.url, 'POST', '/api/public/v1/api-keys', { body: { label: 'npm-start' } })
    expect(key.status).toBe(201)

    const daemonChildren = childPids(file.pid)
    started.process.kill('SIGTERM')
    const code = await started.exited
    // npm forwards the signal to the daemon and ends by it itself; the daemon's graceful stop removes daemon.json.
    expect(code === 0 || started.process.signalCode === 'SIGTERM').toBe(true)
    const deadline = Date.now() + 5_000
    const leftovers = () => [file.pid, ...daemonChildren].filter(isAlive)
    while (leftovers().length > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100))
    expect(leftovers()).toEqual([])
    await expect(stat(join(dataDir, 'daemon.json'))).rejects.toThrow(/ENOENT/)
  })
})
