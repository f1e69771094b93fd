import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { CONFIG_ENV } from '../../../src/config/load-config.ts'
import { YOUNG_GENERATION_FLAG } from '../../../daemon/process/bound-heap-growth.ts'

const unit = readFileSync(new URL('../../../deploy/prebuy.service', import.meta.url), 'utf8')
const directives = new Map(
  unit
    .split('\n')
    .filter((line) => /^[A-Za-z]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const),
)
const packageJson = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { scripts: Record<string, string> }
const manifest = JSON.parse(readFileSync(new URL('../../../oclif.manifest.json', import.meta.url), 'utf8')) as { commands: Record<string, unknown> }

describe('deploy/prebuy.service', () => {
  it('starts the daemon command the CLI really has, with the data dir the config really reads', () => {
    expect(directives.get('ExecStart')).toBe('/usr/bin/node /opt/prebuy/bin/run.js daemon start')
    expect(manifest.commands['daemon:start']).toBeDefined()
    expect(unit).toContain(`Environment=${CONFIG_ENV.dataDir}=/var/lib/prebuy`)
    expect(directives.get('EnvironmentFile')).toBe('/etc/prebuy/prebuy.env')
  })

  it('stops it the way its graceful stop expects: SIGTERM to the daemon only, then a kill after a timeout', () => {
    expect(directives.get('KillSignal')).toBe('SIGTERM')
    expect(directives.get('KillMode')).toBe('mixed')
    expect(Number(directives.get('TimeoutStopSec'))).toBeGreaterThanOrEqual(30)
    expect(directives.get('Restart')).toBe('on-failure')
  })

  it('keeps the allocator to two arenas (RSS at 100,000 orders, docs/reliability.md)', () => {
    expect(unit).toContain('Environment=MALLOC_ARENA_MAX=2')
  })

  it("bounds V8's young generation as the daemon's memory figures assume, as `npm start` does", () => {
    expect(unit).toContain(`Environment=NODE_OPTIONS=${YOUNG_GENERATION_FLAG}`)
    expect(packageJson.scripts.start).toBe(`exec node ${YOUNG_GENERATION_FLAG} bin/run.js daemon start`)
    // The benches' in-process daemons measure the same V8 settings (test/bench/run.ts).
    expect(packageJson.scripts.bench).toBe(`node ${YOUNG_GENERATION_FLAG} --import tsx test/bench/run.ts`)
  })

  it('runs unprivileged with private files', () => {
    expect(directives.get('User')).toBe('prebuy')
    expect(directives.get('UMask')).toBe('0077')
    expect(directives.get('NoNewPrivileges')).toBe('true')
    expect(directives.get('ReadWritePaths')).toBe('/var/lib/prebuy')
  })
})
