import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..', '..')
let dir: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'prebuy-cli-'))
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  const child = spawn('node', [join(root, 'bin', 'run.js'), ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const [code] = (await once(child, 'exit')) as [number | null]
  return { code, stdout, stderr }
}

describe('prebuy daemon start with a bad config', () => {
  it('stops with one line naming the field from config.json, exit 1', async () => {
    await writeFile(join(dir, 'config.json'), JSON.stringify({ port: 70000 }))
    const result = await run(['daemon', 'start', '--data-dir', dir])
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe('config error: port: expected an integer from 1 to 65535 (from config.json)')
    expect(result.stdout).toBe('')
  })

  it('names a bad flag and a bad env value', async () => {
    await writeFile(join(dir, 'config.json'), '{}')
    const flag = await run(['daemon', 'start', '--data-dir', dir, '--port', 'x'])
    expect(flag.code).toBe(1)
    expect(flag.stderr.trim()).toBe('config error: port: expected an integer from 1 to 65535 (from --port)')
    const env = await run(['daemon', 'start', '--data-dir', dir], { PORT: '99999' })
    expect(env.code).toBe(1)
    expect(env.stderr.trim()).toBe('config error: port: expected an integer from 1 to 65535 (from env PORT)')
  })

  it('never prints the passphrase it refuses', async () => {
    const result = await run(['daemon', 'start', '--data-dir', dir], { PREBUY_PASSPHRASE: 'short' })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe('config error: PREBUY_PASSPHRASE: expected at least 8 characters (from env PREBUY_PASSPHRASE)')
    expect(result.stderr).not.toContain('short\n')
  })
})

describe('prebuy daemon start with a port in use', () => {
  it('fails fast, before starting any chain, with one clear line', async () => {
    await writeFile(join(dir, 'config.json'), '{}')
    const blocker = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const port = (blocker.address() as AddressInfo).port
    try {
      const result = await run(['daemon', 'start', '--data-dir', dir, '--port', String(port)])
      expect(result.code).toBe(1)
      expect(result.stderr).toContain(`prebuy: cannot start: cannot start the public API: 127.0.0.1:${port} is already in use`)
      expect(result.stdout).not.toContain('devnet started')
    } finally {
      blocker.close()
    }
  })
})

describe('operator commands without a daemon', () => {
  it('say how to start one, with --json too, exit 1', async () => {
    const plain = await run(['keys', 'list', '--data-dir', dir])
    expect(plain.code).toBe(1)
    expect(plain.stderr).toContain(`no daemon is running for data dir ${dir}`)
    const json = await run(['registrations', 'list', '--data-dir', dir, '--json'])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout).error.message).toContain('prebuy daemon start')
  })

  it('reject bad flags before calling the daemon', async () => {
    const result = await run([
      'registrations',
      'approve',
      'rev_1',
      '--slug',
      's',
      '--creator',
      '0x1',
      '--launchpad',
      'pumpfun',
      '--chain',
      'base',
      '--data-dir',
      dir,
    ])
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain('Expected --launchpad=pumpfun to be one of: clanker, doppler, zora')
  })
})
