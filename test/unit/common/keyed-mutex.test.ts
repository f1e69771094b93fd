import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createKeyedMutex, keyGroup } from '../../../src/common/keyed-mutex.ts'
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
    // runAll queued on 'a' too when it was called, so a later single-key holder of 'a' waits for it.
    const single = mutex.run('a', async () => {
      events.push('single')
      return 'single'
    })
    x.finish()
    expect(await Promise.all([holding, all, single])).toEqual(['x', 'all', 'single'])
    expect(ran).toBe(true)
  })

  it('runAll queues on every key when called: a later run on another of its keys does not overtake it while it waits for the first', async () => {
    const mutex = createKeyedMutex()
    const events: string[] = []
    const x = gatedTask(events, 'x')
    const holding = mutex.run('a', x.task)
    await x.started
    const all = mutex.runAll(['a', 'b'], async () => void events.push('all'))
    const later = mutex.run('b', async () => void events.push('later b'))
    await settle()
    // 'b' is free, but runAll was queued on it first.
    expect(events).toEqual(['x:start'])
    x.finish()
    await Promise.all([holding, all, later])
    expect(events).toEqual(['x:start', 'x:end', 'all', 'later b'])
  })

  it('for any calls of run, runAll and runGroup (over overlapping keys, in any order, some failing), no two tasks sharing a key overlap, each key is held in call order and every task finishes', async () => {
    const call = fc.record({
      keys: fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e'), { minLength: 1, maxLength: 4 }),
      kind: fc.constantFrom('single' as const, 'all' as const, 'group' as const),
      turns: fc.nat(3),
      fails: fc.boolean(),
    })
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 12 }), fc.array(fc.nat(2), { maxLength: 12 }), async (calls, gaps) => {
        const mutex = createKeyedMutex()
        const held = new Map<string, number>()
        const finished: number[] = []
        const runs: Promise<unknown>[] = []
        const overlaps: string[] = []
        const holders = new Map<string, number[]>()
        for (const [i, c] of calls.entries()) {
          const locked = new Set(c.kind === 'single' ? [c.keys[0]!] : c.keys)
          const task = async () => {
            for (const k of locked) {
              if (held.has(k)) overlaps.push(`task ${i} entered ${k} held by task ${held.get(k)}`)
              held.set(k, i)
              holders.set(k, [...(holders.get(k) ?? []), i])
            }
            for (let t = 0; t < c.turns; t++) await Promise.resolve()
            for (const k of locked) held.delete(k)
            finished.push(i)
            if (c.fails) throw new Error(`task ${i}`)
          }
          const run = c.kind === 'single' ? mutex.run(c.keys[0]!, task) : c.kind === 'all' ? mutex.runAll(c.keys, task) : mutex.runGroup(keyGroup(c.keys), task)
          runs.push(run.catch(() => undefined))
          for (let g = 0; g < (gaps[i] ?? 0); g++) await Promise.resolve()
        }
        await Promise.all(runs)
        expect(overlaps).toEqual([])
        for (const order of holders.values()) expect(order).toEqual([...order].sort((x, y) => x - y))
        expect(finished.sort((x, y) => x - y)).toEqual(calls.map((_, i) => i))
      }),
      { numRuns: 300 },
    )
  })

  it('runGroup waits for a holder of one of its keys, a later run on any of its keys waits for it, a group sharing no key does not', async () => {
    const mutex = createKeyedMutex()
    const events: string[] = []
    const x = gatedTask(events, 'x')
    const holding = mutex.run('orders:b', x.task)
    await x.started
    const group = keyGroup(['orders:a', 'orders:b', 'orders:c'])
    const g = gatedTask(events, 'group')
    const grouped = mutex.runGroup(group, g.task)
    const later = mutex.run('orders:c', async () => void events.push('later c'))
    const other = mutex.runGroup(keyGroup(['orders:d']), async () => void events.push('other group'))
    const overlapping = mutex.runAll(['orders:d', 'orders:a'], async () => void events.push('all a d'))
    await settle()
    // Only the group sharing no key ran; the rest wait for x (the group) and the group (the later calls).
    expect(events).toEqual(['x:start', 'other group'])
    x.finish()
    await g.started
    await settle()
    expect(events).toEqual(['x:start', 'other group', 'x:end', 'group:start'])
    g.finish()
    await Promise.all([holding, grouped, later, other, overlapping])
    expect(events.slice(4).sort()).toEqual(['all a d', 'group:end', 'later c'].sort())
    expect(events.indexOf('group:end')).toBeLessThan(events.indexOf('later c'))
    expect(events.indexOf('group:end')).toBeLessThan(events.indexOf('all a d'))
    // Settled: the group's keys are free again.
    expect(await mutex.run('orders:a', async () => 'free')).toBe('free')
  })

  it('two runAll calls over overlapping keys given in opposite orders both finish', async () => {
    const mutex = createKeyedMutex()
    const results = await Promise.all([mutex.runAll(['p', 'q'], async () => 1), mutex.runAll(['q', 'p'], async () => 2), mutex.run('q', async () => 3)])
    expect(results).toEqual([1, 2, 3])
  })
})
