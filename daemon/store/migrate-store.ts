import { PrebuyError } from '../../src/common/errors.ts'
import { createJournal } from '../../src/journal/journal.ts'
import { put, type Store, type StoreOperation } from '../../src/store/open-store.ts'
import { readAll } from '../../src/store/paginate.ts'
import { projectChainKey } from '../../src/store/project-index.ts'

/** The layout this code reads and writes, recorded in meta 'storeVersion' (a store without one is version 1). */
export const STORE_VERSION = 4

/** The operations that bring a store from version `to - 1` to `to`, written in one batch with the new version. */
const MIGRATIONS: Record<number, (store: Store) => Promise<StoreOperation[]>> = {
  // 2: projectsByChain, the index of projects per chain and launch state (it replaced scans of every project).
  2: async (store) => (await readAll(store.sub.projects, '')).map(({ value }) => put(store.sub.projectsByChain, projectChainKey(value), value.slug)),
  // 3: an order event of a reverted buy carries the decoded error's name (errorName), which the executor's failure count
  // reads; events recorded before kept it only at the start of their reason text, `TooLittleReceived(90, 100)`.
  3: async (store) => {
    const { orderEvents } = createJournal(store).sub
    const ops: StoreOperation[] = []
    for (const { key, value } of await readAll(orderEvents, '')) {
      const named = value.from === 'executing' && value.to === 'active' && value.errorName === undefined && /^([A-Za-z_]\w*)\(/.exec(value.reason ?? '')
      if (named) ops.push(put(orderEvents, key, { ...value, errorName: named[1]! }))
    }
    return ops
  },
  // 4: a project carries its expected token address (null until recorded).
  4: async (store) =>
    (await readAll(store.sub.projects, ''))
      .filter(({ value }) => value.expectedTokenAddress === undefined)
      .map(({ key, value }) => put(store.sub.projects, key, { ...value, expectedTokenAddress: null })),
}

/**
 * Brings an opened store up to STORE_VERSION, one atomic batch per version (a crash between two leaves a store at a
 * version it can resume from). A store written by a newer version is refused: this code would misread it.
 */
export async function migrateStore(store: Store): Promise<void> {
  let version = (await store.sub.meta.get('storeVersion')) ?? 1
  if (version > STORE_VERSION) {
    throw new PrebuyError(
      'store_too_new',
      `The data dir's database is at layout version ${version}, newer than this prebuy reads (${STORE_VERSION}); run the newer version.`,
    )
  }
  while (version < STORE_VERSION) {
    version++
    const migrate = MIGRATIONS[version]
    if (!migrate) throw new PrebuyError('store_migration_missing', `No migration to store layout version ${version}.`)
    await store.batch([...(await migrate(store)), put(store.sub.meta, 'storeVersion', version)])
  }
}
