import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '../../src/store/open-store.ts'

/** A real LevelDB store in a fresh temporary data dir; `remove` closes it and deletes the dir. */
export async function openTempStore(label: string): Promise<{ dir: string; store: Store; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `prebuy-${label}-`))
  const store = await openStore({ dataDir: dir })
  return {
    dir,
    store,
    async remove() {
      await store.close()
      await rm(dir, { recursive: true, force: true })
    },
  }
}
