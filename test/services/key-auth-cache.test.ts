import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { withResolvers } from '../../src/common/with-resolvers.ts'
import { createServices, type Services } from '../../src/services/services.ts'
import type { Store } from '../../src/store/open-store.ts'
import type { WalletService } from '../../src/wallets/wallet-service.ts'
import { openTempStore } from '../support/temp-store.ts'

const walletOf = async (i: number) => `0x${(i + 1).toString(16).padStart(40, '0')}`
const wallets = { walletAddress: walletOf, verifiedWalletAddress: walletOf } as unknown as WalletService

/**
 * key-service.ts authenticate's cache on a real store: a key revoked or rotated while a login read it is refused from
 * then on. The login's read of the key record is made at once and handed back only once the test opens its gate.
 */
describe('the API key cache and a revocation during a login', () => {
  let store: Store
  let remove: () => Promise<void>
  let services: Services
  beforeEach(async () => {
    ;({ store, remove } = await openTempStore('key-auth-cache'))
    services = createServices({ store, wallets })
  })
  afterEach(async () => {
    await remove()
  })

  /** Holds the next read of a key record (read now, handed back once `open` is called); later reads pass through. */
  function holdNextKeyRead() {
    const keys = store.sub.keys
    const get = keys.get.bind(keys)
    const gate = withResolvers<void>()
    const read = withResolvers<void>()
    let held = true
    keys.get = (async (id: string) => {
      if (!held) return get(id)
      held = false
      const value = await get(id)
      read.resolve()
      await gate.promise
      return value
    }) as typeof keys.get
    const restore = () => {
      keys.get = get
    }
    return { read: read.promise, open: () => gate.resolve(), restore }
  }

  it('a login whose read began before the revocation does not cache the key: the next login is refused', async () => {
    const { apiKey, record } = await services.keys.issueKey('buyer')
    const hold = holdNextKeyRead()
    try {
      const login = services.keys.authenticate(apiKey)
      await hold.read
      await services.keys.revokeKey(record.id)
      hold.open()
      // The login in flight saw the key before its revocation: it may pass, once.
      expect((await login)?.id).toBe(record.id)
    } finally {
      hold.restore()
    }
    expect(await services.keys.authenticate(apiKey)).toBeUndefined()
  })

  it('a key rotated while a login read it: the old key is refused from then on, the new one accepted', async () => {
    const { apiKey, record } = await services.keys.issueKey('buyer')
    const hold = holdNextKeyRead()
    let rotated: string
    try {
      const login = services.keys.authenticate(apiKey)
      await hold.read
      rotated = (await services.keys.rotateKey(record.id)).apiKey
      hold.open()
      await login
    } finally {
      hold.restore()
    }
    expect(await services.keys.authenticate(apiKey)).toBeUndefined()
    expect((await services.keys.authenticate(rotated))?.id).toBe(record.id)
  })
})
