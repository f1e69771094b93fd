import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { exitDumpPath, readStateHead, settleStateFiles, writeStateFile } from '../../devnet/anvil/state-files.ts'

const state = (best: number) => JSON.stringify({ block: { number: `0x${best.toString(16)}` }, accounts: {}, best_block_number: best, blocks: [] })

describe('devnet state files', () => {
  let dir: string
  let stateFile: string
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'prebuy-state-files-'))
    stateFile = join(dir, 'state.json')
  })
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true })
  })

  it('reads the newest block of a whole file, and tells a torn or absent one', async () => {
    await writeFile(stateFile, state(12))
    expect(await readStateHead(stateFile)).toEqual({ kind: 'readable', bestBlock: 12n })
    await writeFile(stateFile, state(12).slice(0, 40))
    expect(await readStateHead(stateFile)).toMatchObject({ kind: 'unreadable' })
    expect(await readStateHead(join(dir, 'none.json'))).toEqual({ kind: 'absent' })
    expect(exitDumpPath(stateFile)).toBe(join(dir, 'state.exit.json'))
  })

  it('writes through a temporary file and a rename: no other file is left behind', async () => {
    await writeStateFile(stateFile, state(3))
    expect(await readdir(dir)).toEqual(['state.json'])
    expect(await readStateHead(stateFile)).toEqual({ kind: 'readable', bestBlock: 3n })
  })

  it("promotes anvil's exit dump when it is newer, and drops it when it is older", async () => {
    await writeFile(stateFile, state(10))
    await writeFile(exitDumpPath(stateFile), state(11))
    expect(await settleStateFiles(stateFile, { moveAsideUnreadable: false })).toEqual({ load: stateFile, movedAside: [] })
    expect(JSON.parse(await readFile(stateFile, 'utf8')).best_block_number).toBe(11)
    expect(await readdir(dir)).toEqual(['state.json'])

    await writeFile(exitDumpPath(stateFile), state(4))
    await settleStateFiles(stateFile, { moveAsideUnreadable: false })
    expect(JSON.parse(await readFile(stateFile, 'utf8')).best_block_number).toBe(11)
    expect(await readdir(dir)).toEqual(['state.json'])
  })

  it('starts empty when there is no state at all', async () => {
    expect(await settleStateFiles(stateFile, { moveAsideUnreadable: false })).toEqual({ load: undefined, movedAside: [] })
  })

  it('first start: a torn state file goes aside (the devnet then redeploys); a restart refuses it unless the exit dump is whole', async () => {
    await writeFile(stateFile, '{"block": {"numb')
    await expect(settleStateFiles(stateFile, { moveAsideUnreadable: false })).rejects.toThrow(/cannot be read/)
    await writeFile(exitDumpPath(stateFile), state(8))
    const restart = await settleStateFiles(stateFile, { moveAsideUnreadable: false })
    expect(restart.load).toBe(stateFile)
    expect(restart.movedAside.map((m) => m.file)).toEqual([stateFile])
    expect(JSON.parse(await readFile(stateFile, 'utf8')).best_block_number).toBe(8)

    await writeFile(stateFile, '{"block": {"numb')
    const first = await settleStateFiles(stateFile, { moveAsideUnreadable: true })
    expect(first.load).toBeUndefined()
    expect((await readdir(dir)).filter((name) => name.startsWith('state.json.unreadable-'))).toHaveLength(2)
  })
})
