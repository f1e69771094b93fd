import type { Address } from 'viem'
import { describe, expect, it } from 'vitest'
import { createNonceManager } from '../../../../src/wallets/bundler/nonce-manager.ts'

const A: Address = '0x00000000000000000000000000000000000000aa'

describe('nonce manager', () => {
  it('hands out consecutive nonces in order under concurrency and resyncs after a failure', async () => {
    let chain = 5
    let reads = 0
    const manager = createNonceManager(A, {
      pendingNonce: async () => {
        reads++
        return chain
      },
    })
    const used: number[] = []
    await Promise.all(
      Array.from({ length: 5 }, () =>
        manager.use(async (nonce) => {
          await new Promise((r) => setTimeout(r, Math.random() * 5))
          used.push(nonce)
        }),
      ),
    )
    expect(used).toEqual([5, 6, 7, 8, 9])
    expect(reads).toBe(1)
    await expect(
      manager.use(async () => {
        throw new Error('nonce too low')
      }),
    ).rejects.toThrow('nonce too low')
    chain = 12
    expect(await manager.use(async (nonce) => nonce)).toBe(12)
    expect(reads).toBe(2)
    manager.resync()
    chain = 20
    expect(await manager.use(async (nonce) => nonce)).toBe(20)
  })
})

describe('nonce manager: chain nonce observations', () => {
  it('drops the counter when the chain lost our transactions, but not on a read that overlapped a send', async () => {
    let chain = 5
    let reads = 0
    const manager = createNonceManager(A, {
      pendingNonce: async () => {
        reads++
        return chain
      },
    })
    expect(await manager.use(async (nonce) => nonce)).toBe(5)
    expect(await manager.use(async (nonce) => nonce)).toBe(6)
    // A read that a send overlapped may predate it: ignored.
    let release: () => void = () => undefined
    const mark = manager.mark()
    const sending = manager.use((nonce) => new Promise<number>((resolve) => (release = () => resolve(nonce))))
    await new Promise((r) => setTimeout(r, 0))
    manager.observe(5, mark)
    release()
    expect(await sending).toBe(7)
    const during = manager.mark()
    expect(await manager.use(async (nonce) => nonce)).toBe(8)
    manager.observe(3, during)
    expect(await manager.use(async (nonce) => nonce)).toBe(9)
    expect(reads).toBe(1)
    // A quiet read at or above the counter changes nothing; below it (a reorg dropped 9 and 10), the chain wins.
    manager.observe(10, manager.mark())
    expect(await manager.use(async (nonce) => nonce)).toBe(10)
    chain = 9
    manager.observe(9, manager.mark())
    expect(await manager.use(async (nonce) => nonce)).toBe(9)
    expect(reads).toBe(2)
  })

  it('takes a quiet read as the counter when it is unknown: the first send reads nothing (a read overlapped by a send is not taken)', async () => {
    let reads = 0
    const manager = createNonceManager(A, {
      pendingNonce: async () => {
        reads++
        return 4
      },
    })
    manager.observe(7, manager.mark())
    expect(await manager.use(async (nonce) => nonce)).toBe(7)
    expect(reads).toBe(0)
    const failing = manager.use(async () => Promise.reject(new Error('refused')))
    await expect(failing).rejects.toThrow('refused')
    // After a failed send the counter is unknown again; a read taken while a send was in flight is not used.
    let release: () => void = () => undefined
    const during = manager.mark()
    const sending = manager.use((nonce) => new Promise<number>((resolve) => (release = () => resolve(nonce))))
    await new Promise((r) => setTimeout(r, 0))
    manager.observe(20, during)
    release()
    expect(await sending).toBe(4)
    expect(reads).toBe(1)
  })
})
