import type { DeskSettings } from '../domain/records.ts'
import { put, type Store } from '../store/open-store.ts'
import type { Clock } from './clock.ts'

/** The submission desk: when closed, key requests, registrations and feedback get 503 with Retry-After. */
export interface DeskService {
  get(): Promise<DeskSettings>
  open(): Promise<DeskSettings>
  close(retryAfterSeconds?: number): Promise<DeskSettings>
}

export const DEFAULT_DESK_RETRY_AFTER_SECONDS = 3600

export function createDeskService({ store, now }: { store: Store; now: Clock }): DeskService {
  const { settings } = store.sub
  const write = async (value: DeskSettings) => {
    await store.batch([put(settings, 'desk', value)])
    return value
  }
  return {
    async get() {
      return (await settings.get('desk')) ?? { open: true, retryAfterSeconds: DEFAULT_DESK_RETRY_AFTER_SECONDS, updatedAt: 0 }
    },
    open: () => write({ open: true, retryAfterSeconds: DEFAULT_DESK_RETRY_AFTER_SECONDS, updatedAt: now() }),
    close: (retryAfterSeconds = DEFAULT_DESK_RETRY_AFTER_SECONDS) =>
      write({ open: false, retryAfterSeconds: Math.max(1, Math.floor(retryAfterSeconds)), updatedAt: now() }),
  }
}
