import { existsSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { readFile, rename, rm, writeFile } from 'node:fs/promises'

/**
 * A devnet chain's state on disk, written so that a kill -9 at any moment leaves a loadable file.
 *
 * anvil writes its own dumps in place (foundry crates/anvil/src/cmd.rs, PeriodicStateDumper::dump_state calls
 * foundry_common::fs::write_json_file on the state path): a kill during that write left a truncated `state.json` that
 * no restart could load, and the chain was down for good. So anvil never writes the file we load:
 * - `state.json` is written only by us, whole, through a temporary file and a rename (see state-dumper.ts);
 * - anvil's own dump (`--dump-state`, on exit: a graceful stop, or its watchdog when the daemon died) goes to
 *   `state.exit.json`, and is promoted to `state.json` only after it parsed completely and is newer.
 */
export const exitDumpPath = (stateFile: string): string => stateFile.replace(/(\.json)?$/, '.exit.json')

export type StateHead = { kind: 'readable'; bestBlock: bigint } | { kind: 'unreadable'; reason: string } | { kind: 'absent' }

/** Whether a state file parses completely, and the newest block it holds. */
export async function readStateHead(path: string): Promise<StateHead> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'absent' }
    return { kind: 'unreadable', reason: (error as Error).message }
  }
  try {
    const state = JSON.parse(text) as { best_block_number?: unknown; block?: { number?: unknown } }
    const best = state.best_block_number ?? state.block?.number
    if (typeof best !== 'number' && typeof best !== 'string') return { kind: 'unreadable', reason: 'no best_block_number' }
    return { kind: 'readable', bestBlock: BigInt(best) }
  } catch (error) {
    return { kind: 'unreadable', reason: (error as Error).message }
  }
}

/** Writes a complete state file: a temporary file first, then a rename, so readers never see half a file. */
export async function writeStateFile(stateFile: string, contents: string | Uint8Array): Promise<void> {
  const temporary = `${stateFile}.tmp-${process.pid}`
  await writeFile(temporary, contents)
  await rename(temporary, stateFile)
}

export interface SettledState {
  /** The file to load (`--load-state`), or undefined for an empty chain. */
  load: string | undefined
  /** Files that did not parse, moved aside (first start only). */
  movedAside: Array<{ file: string; movedTo: string; reason: string }>
}

/**
 * Before anvil starts: the newest complete dump becomes `state.json` (anvil's exit dump when it is newer), the exit
 * dump is removed, and a file that does not parse is moved aside when `moveAsideUnreadable` (first start: the devnet
 * then redeploys on an empty chain). On a restart under a running daemon an unreadable state throws instead: an
 * emptied chain under a running daemon is worse than a clear fatal error.
 */
export async function settleStateFiles(stateFile: string, options: { moveAsideUnreadable: boolean }): Promise<SettledState> {
  const exitFile = exitDumpPath(stateFile)
  const [main, exit] = await Promise.all([readStateHead(stateFile), readStateHead(exitFile)])
  const movedAside: SettledState['movedAside'] = []
  for (const [file, head] of [
    [stateFile, main],
    [exitFile, exit],
  ] as const) {
    if (head.kind !== 'unreadable') continue
    if (!options.moveAsideUnreadable && file === stateFile && exit.kind !== 'readable') {
      throw new Error(`the chain's state file ${stateFile} cannot be read (${head.reason})`)
    }
    // Unique even for two files moved in one millisecond (a second rename to the same name would erase the first).
    const movedTo = `${file}.unreadable-${Date.now()}-${randomBytes(4).toString('hex')}`
    await rename(file, movedTo)
    movedAside.push({ file, movedTo, reason: head.reason })
  }
  if (exit.kind === 'readable' && (main.kind !== 'readable' || exit.bestBlock >= main.bestBlock)) await rename(exitFile, stateFile)
  else await rm(exitFile, { force: true })
  return { load: existsSync(stateFile) ? stateFile : undefined, movedAside }
}
