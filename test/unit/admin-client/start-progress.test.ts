import { describe, expect, it, vi } from 'vitest'
import { createStartProgress } from '../../../src/admin-client/cli/start-progress.ts'

const titles = { one: 'Step one', two: 'Step two', three: 'Step three' }

async function captured(fn: () => Promise<void>): Promise<string> {
  let out = ''
  const capture = (chunk: string | Uint8Array) => {
    out += chunk.toString()
    return true
  }
  // Done lines go to stdout, failures to stderr.
  const spies = [vi.spyOn(process.stdout, 'write').mockImplementation(capture), vi.spyOn(process.stderr, 'write').mockImplementation(capture)]
  try {
    await fn()
  } finally {
    for (const spy of spies) spy.mockRestore()
  }
  return out
}

describe('createStartProgress', () => {
  it('marks every step done once start-up finishes', async () => {
    const out = await captured(async () => {
      const progress = createStartProgress(titles)
      progress.onStep('one')
      progress.onStep('two')
      progress.onStep('three')
      await progress.finish()
    })
    expect(out.match(/✔/g)?.length).toBe(3)
    expect(out).toContain('Step three')
  })

  it('marks the running step failed and resolves (the command reports the error itself)', async () => {
    const out = await captured(async () => {
      const progress = createStartProgress(titles)
      progress.onStep('one')
      progress.onStep('two')
      await expect(progress.finish(new Error('port in use'))).resolves.toBeUndefined()
    })
    expect(out.match(/✔/g)?.length).toBe(1)
    expect(out).toMatch(/✖.*Step two/)
    expect(out).toContain('port in use')
    expect(out).not.toMatch(/✔.*Step three/)
  })
})
