import { describe, expect, it } from 'vitest'
import { createKeyedMutex } from '../../../src/common/keyed-mutex.ts'
import { withResolvers } from '../../../src/common/with-resolvers.ts'

/** A task that records its start, then waits for the test to let it finish. */
function gatedTask(events: string[], name: string) {
  const gate = withResolvers<void>()
  const started = withResolvers<void>()
  const task = async () => {
    events.push(`${name}:start`)
    started.resolve()
    await gate.promise
    events.push(`${name}:end`)
    return name
  }
  return { task, started: started.promise, finish: () => gate.resolve() }
}

const settle = () => new Promise((resolve) => setImmediate(resolve))

describe('keyed mutex', () => {
  it('runs one key one task at a time, in call order, and leaves other keys free', async () => {
    const mutex = createKeyedMutex()
    const events: string[] = []
    const a = gatedTask(events, 'a')
    const b = gatedTask(events, 'b')
    const c = gatedTask(events, 'c')
    const runs = [mutex.run('k', a.task), mutex.run('k', b.task), mutex.run('other', c.task)]
    await Promise.all([a.started, c.started])
    await settle()
    expect(events).toEqual(['a:start', 'c:start'])
    c.finish()
    a.finish()
    await b.started
    b.finish()
    expect(await Promise.all(runs)).toEqual(['a', 'b', 'c'])
    expect(events.indexOf('a:end')).toBeLessThan(events.indexOf('b:start'))
  })

  it('releases the key when the task throws', async () => {
    const mutex = createKeyedMutex()
    await expect(mutex.run('k', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom')
    expect(await mutex.run('k', async () => 42)).toBe(42)
  })

  it('runAll holds every key (duplicates once) and waits for each holder', async () => {
    const mutex = createKeyedMutex()
    const events: string[] = []
    const x = gatedTask(events, 'x')
    const holding = mutex.run('b', x.task)
    await x.started
    let ran = false
    const all = mutex.runAll(['b', 'a', 'b'], async () => {
      ran = true
      return 'all'
    })
    await settle()
    expect(ran).toBe(false)
    // 'a' is taken first (sorted order), so a single-key holder of 'a' now waits for runAll.
    const single = mutex.run('a', async () => {
      events.push('single')
      return 'single'
    })
    x.finish()
    expect(await Promise.all([holding, all, single])).toEqual(['x', 'all', 'single'])
    expect(ran).toBe(true)
  })

  it('two runAll calls over overlapping keys given in opposite orders both finish', async () => {
    const mutex = createKeyedMutex()
    const results = await Promise.all([mutex.runAll(['p', 'q'], async () => 1), mutex.runAll(['q', 'p'], async () => 2), mutex.run('q', async () => 3)])
    expect(results).toEqual([1, 2, 3])
  })
})
