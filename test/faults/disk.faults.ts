import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createHarness, PREFIX } from '../api/harness.ts'
import { recordFigures } from './report.ts'

/**
 * A data dir on a small tmpfs (mount needs root with CAP_SYS_ADMIN, as on this project's machines): filled up while
 * keys are written through the API: every refusal is a 503 in the error shape (storage_unavailable), and once space is
 * back (and the daemon restarted: LevelDB refuses writes after a failed one) every write the API acknowledged is
 * there, nothing corrupt. Remounted read-only, the store does not open, with a message naming the cause.
 */
let mountPoint: string | undefined

afterAll(async () => {
  if (mountPoint) {
    try {
      execFileSync('umount', [mountPoint])
    } catch {
      // not mounted
    }
    await rm(mountPoint, { recursive: true, force: true })
  }
})

const mount = (dir: string, options: string) => execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir])

describe('a full or read-only data dir', () => {
  it('answers with clear errors in the error shape, loses no acknowledged write, and recovers once space is back', async () => {
    mountPoint = await mkdtemp(join(tmpdir(), 'prebuy-disk-'))
    mount(mountPoint, 'size=8m')
    const dataDir = join(mountPoint, 'data')
    let h = await createHarness({ dataDir, config: { apiKeyCreationPerIpPerHour: 1_000_000, perKeyPerMinute: 1_000_000 } })
    // Leave little room: a filler file takes most of the filesystem.
    const filler = join(mountPoint, 'filler')
    execFileSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=64k', 'count=110'], { stdio: 'ignore' })

    const acknowledged: string[] = []
    const statuses = new Map<number, number>()
    const bodies = new Set<string>()
    for (let i = 0; i < 3_000; i++) {
      const label = `disk-${i}-${'x'.repeat(40)}`
      const res = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label } })
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1)
      if (res.statusCode === 201) acknowledged.push(label)
      else {
        const body = res.json() as { error: unknown; message: unknown; code?: unknown }
        expect(typeof body.error).toBe('string')
        expect(typeof body.message).toBe('string')
        expect(res.body).not.toMatch(/ENOSPC|\n\s+at |\.ts:\d+/)
        bodies.add(`${res.statusCode} ${body.code ?? ''} ${body.message}`)
        if (statuses.get(res.statusCode)! > 20) break
      }
    }
    const full = { acknowledgedBeforeFull: acknowledged.length, statuses: Object.fromEntries(statuses), errors: [...bodies] }
    expect(acknowledged.length).toBeGreaterThan(0)
    expect([...statuses.keys()].some((s) => s >= 500)).toBe(true)
    for (const status of statuses.keys()) expect([201, 503]).toContain(status)

    // Space back: a restart on the same dir finds every acknowledged key.
    await rm(filler)
    h = await h.restart()
    const keys = await h.services.keys.listKeys()
    const labels = new Set(keys.map((k) => k.label))
    const lost = acknowledged.filter((label) => !labels.has(label))
    expect(lost).toEqual([])
    const after = await h.app.inject({ method: 'POST', url: `${PREFIX}/api-keys`, payload: { label: 'after-space' } })
    expect(after.statusCode).toBe(201)

    // Read-only (a remount while the daemon is stopped): opening the store fails with a message naming the cause.
    await h.close()
    execFileSync('mount', ['-o', 'remount,ro', mountPoint])
    const readOnly = await createHarness({ dataDir }).then(
      async (opened) => {
        await opened.close()
        return 'opened'
      },
      (error: unknown) => (error instanceof Error ? error.message : String(error)),
    )
    expect(readOnly).toMatch(/read-only/i)
    execFileSync('mount', ['-o', 'remount,rw', mountPoint])
    h = await createHarness({ dataDir })
    expect((await h.services.keys.listKeys()).map((k) => k.label)).toContain('after-space')
    await h.close()
    recordFigures('disk', { full, lostAfterRecovery: lost.length, readOnly })
  })
})
