import { PrebuyError } from '../common/errors.ts'
import { BLOCK_TYPES, type BlockEntry, type BlockType } from '../domain/records.ts'
import { del, put, type Store } from '../store/open-store.ts'
import { readAll } from '../store/paginate.ts'
import type { Clock } from './clock.ts'

export interface BlocklistService {
  add(type: BlockType, value: string, note?: string): Promise<BlockEntry>
  /** True when something was removed. */
  remove(type: BlockType, value: string): Promise<boolean>
  list(): Promise<BlockEntry[]>
  /** True when any given value is on the list (values are compared trimmed and case-insensitively). */
  isBlocked(subject: Partial<Record<BlockType, string | undefined>>): Promise<boolean>
}

export const normaliseBlockValue = (value: string): string => value.trim().toLowerCase()
const entryKey = (type: BlockType, value: string): string => `${type}!${normaliseBlockValue(value)}`

export function createBlocklistService({ store, now }: { store: Store; now: Clock }): BlocklistService {
  const { blocklist } = store.sub
  return {
    async add(type, value, note) {
      if (!BLOCK_TYPES.includes(type)) throw new PrebuyError('invalid_block_type', 'type must be ip, email or contact')
      const normalised = normaliseBlockValue(value)
      if (!normalised) throw new PrebuyError('invalid_block_value', 'value must not be empty')
      const entry: BlockEntry = { type, value: normalised, createdAt: now(), ...(note ? { note } : {}) }
      await store.batch([put(blocklist, entryKey(type, value), entry)])
      return entry
    },
    async remove(type, value) {
      const key = entryKey(type, value)
      if ((await blocklist.get(key)) === undefined) return false
      await store.batch([del(blocklist, key)])
      return true
    },
    async list() {
      return (await readAll(blocklist, '')).map((entry) => entry.value)
    },
    async isBlocked(subject) {
      const keys = BLOCK_TYPES.flatMap((type) => {
        const value = subject[type]
        return value === undefined || value.trim() === '' ? [] : [entryKey(type, value)]
      })
      if (keys.length === 0) return false
      return (await blocklist.getMany(keys)).some((entry) => entry !== undefined)
    },
  }
}
