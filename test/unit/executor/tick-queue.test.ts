import { describe, expect, it } from 'vitest'
import { createTickQueue } from '../../../daemon/executor/tick-queue.ts'
import { withResolvers } from '../../../src/common/with-resolvers.ts'
import { launch, tickAt } from '../../executor/parts/executor-fixture.ts'

const other = { ...launch, slug: 'other' }

describe('tick queue (tick-queue.ts)', () => {
  function gatedQueue() {
    const handled: string[] = []
    const errors: string[] = []
    const gates: Array<() => void> = []
    const queue = createTickQueue({
      async handle(tick, l) {
        handled.push(`${l.slug}@${tick.blockNumber}`)
        const gate = withResolvers<void>()
        gates.push(gate.resolve)
        await gate.promise
        if (tick.blockNumber === '99') throw new Error('boom')
      },
      onError: (error, slug) => errors.push(`${slug}: ${(error as Error).message}`),
    })
    const releaseAll = async () => {
      while (queue.size() > 0) {
        for (const open of gates.splice(0)) open()
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
    return { queue, handled, errors, releaseAll }
  }

  it("runs one project's ticks one at a time, keeping only the newest waiting one; other projects run alongside", async () => {
    const { queue, handled, releaseAll } = gatedQueue()
    queue.push(tickAt(11, 1), launch)
    queue.push(tickAt(12, 1), launch)
    queue.push(tickAt(13, 1), launch)
    queue.push(tickAt(11, 1), other)
    expect(handled).toEqual(['unit@11', 'other@11'])
    expect(queue.size()).toBe(3)
    await releaseAll()
    expect(handled).toEqual(['unit@11', 'other@11', 'unit@13'])
    expect(queue.size()).toBe(0)
  })

  it('reports a tick that throws and goes on with the next', async () => {
    const { queue, handled, errors, releaseAll } = gatedQueue()
    queue.push(tickAt(99, 1), launch)
    queue.push(tickAt(100, 1), launch)
    await releaseAll()
    expect(errors).toEqual(['unit: boom'])
    expect(handled).toEqual(['unit@99', 'unit@100'])
  })

  it('stop() drops the waiting ticks and refuses new ones; the running one finishes', async () => {
    const { queue, handled, releaseAll } = gatedQueue()
    queue.push(tickAt(11, 1), launch)
    queue.push(tickAt(12, 1), launch)
    const running = queue.running()
    queue.stop()
    queue.push(tickAt(13, 1), other)
    await releaseAll()
    await Promise.all(running)
    expect(handled).toEqual(['unit@11'])
  })
})
