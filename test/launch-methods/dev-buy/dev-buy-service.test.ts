import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { DevBuyChain } from '../../../src/launch-methods/dev-buy/chain/dev-buy-chain.ts'
import { createDevBuyService, devBuyLaunchId } from '../../../src/launch-methods/dev-buy/dev-buy-service.ts'
import type { Store } from '../../../src/store/open-store.ts'
import { projectWriteOps } from '../../../src/store/project-writes.ts'
import { projectRecord } from '../../support/records.ts'
import { openTempStore } from '../../support/temp-store.ts'

/**
 * The dev-buy service's rules on a real store, with the chain replaced (the launch runs end to end in
 * test/launch-methods/dev-buy/dev-buy-daemon.e2e.test.ts): who may set what and when, the request to launch, refusals.
 */
const OWNER = 'key_owner'
const ADMIN = '0x00000000000000000000000000000000000000A1'
const chain = { coordinator: () => '0x00000000000000000000000000000000000dbc01' } as unknown as DevBuyChain
const input = { name: 'Moon', symbol: 'MOON', tokenAdmin: ADMIN }

describe('dev-buy service', () => {
  let temp: Awaited<ReturnType<typeof openTempStore>>
  let store: Store
  let nowMs: number
  const now = () => nowMs
  const project = async () => (await store.sub.projects.get('moon'))!

  beforeEach(async () => {
    temp = await openTempStore('dev-buy-service')
    store = temp.store
    nowMs = 1_000
    await store.batch(projectWriteOps(store, undefined, projectRecord('moon', { launchMethod: 'dev_buy', ownerKeyId: OWNER })))
    await store.batch(projectWriteOps(store, undefined, projectRecord('plain', { ownerKeyId: OWNER })))
    await store.batch(projectWriteOps(store, undefined, projectRecord('orphan', { launchMethod: 'dev_buy' })))
    await store.batch(projectWriteOps(store, undefined, projectRecord('zoracoin', { launchMethod: 'dev_buy', launchpad: 'zora', ownerKeyId: OWNER })))
  })
  afterEach(async () => {
    await temp.remove()
  })

  it('sets the parameters (owner or operator), trimmed, with a fixed launch id; replaceable until the launch is asked for', async () => {
    const devBuy = createDevBuyService({ store, now, chain })
    const set = await devBuy.setParams('moon', { ownerKeyId: OWNER }, { ...input, name: '  Moon  ', image: 'https://example.org/m.png' })
    expect(set.devBuy).toEqual({
      launchId: devBuyLaunchId('moon'),
      params: {
        name: 'Moon',
        symbol: 'MOON',
        image: 'https://example.org/m.png',
        metadata: '',
        tokenAdmin: ADMIN,
        lock: { lockSeconds: 0, vestingSeconds: 0 },
      },
      requestedAt: null,
      state: null,
    })
    expect((await devBuy.setParams('moon', 'operator', { ...input, symbol: 'MN' })).devBuy!.params.symbol).toBe('MN')
    const locked = await devBuy.setParams('moon', 'operator', { ...input, lockSeconds: 3_600, vestingSeconds: 86_400 })
    expect(locked.devBuy!.params.lock).toEqual({ lockSeconds: 3_600, vestingSeconds: 86_400 })
    nowMs = 2_000
    expect((await devBuy.launch('moon', { ownerKeyId: OWNER })).devBuy!.requestedAt).toBe(2_000)
    // Asking again changes nothing; the parameters are fixed from now on.
    nowMs = 3_000
    expect((await devBuy.launch('moon', 'operator')).devBuy!.requestedAt).toBe(2_000)
    await expect(devBuy.setParams('moon', { ownerKeyId: OWNER }, input)).rejects.toMatchObject({ code: 'dev_buy_requested' })
  })

  it('refuses the token texts the public-text rule refuses: bidi, zero-width and control characters, javascript:/data:/ftp: images, HTML metadata', async () => {
    const devBuy = createDevBuyService({ store, now, chain })
    for (const bad of [
      { name: 'Moon\u202egpj.exe' },
      { name: 'Mo\u200bon' },
      { name: 'Mo\u0085on' },
      { symbol: 'MO\u200bON' },
      { symbol: 'MOON\u2066' },
      { symbol: 'MO ON' },
      { image: 'javascript:alert(1)' },
      { image: 'data:image/svg+xml,<svg onload=alert(1)>' },
      { image: 'ftp://moon.example/m.png' },
      { image: 'https://moon.example/\u202egpj.exe' },
      { metadata: '<script>alert(1)</script>' },
      { metadata: 'a\ufeffb' },
    ]) {
      await expect(devBuy.setParams('moon', { ownerKeyId: OWNER }, { ...input, ...bad }), JSON.stringify(bad)).rejects.toMatchObject({
        code: 'invalid_dev_buy_params',
      })
    }
    expect((await project()).devBuy).toBeUndefined()
    const set = await devBuy.setParams(
      'moon',
      { ownerKeyId: OWNER },
      { ...input, symbol: '$moon.v2', image: '', metadata: '{"description":"The moon.\\nTwo lines."}\n' },
    )
    expect(set.devBuy?.params).toMatchObject({ symbol: '$moon.v2', image: '', metadata: '{"description":"The moon.\\nTwo lines."}' })
  })

  it('after a launch that found nothing to buy, the parameters change again and the launch can be asked for again', async () => {
    const devBuy = createDevBuyService({ store, now, chain })
    await devBuy.setParams('moon', { ownerKeyId: OWNER }, input)
    const current = await project()
    await store.batch(
      projectWriteOps(store, current, {
        ...current,
        devBuy: { ...current.devBuy!, requestedAt: null, state: { status: 'not_launched', reason: 'none', at: 5 } },
      }),
    )
    await devBuy.setParams('moon', { ownerKeyId: OWNER }, { ...input, symbol: 'MOON2' })
    nowMs = 9_000
    const asked = (await devBuy.launch('moon', { ownerKeyId: OWNER })).devBuy!
    expect(asked).toMatchObject({ requestedAt: 9_000, state: null, launchId: devBuyLaunchId('moon') })
  })

  it('refuses: no chain (dev_buy_unavailable), another launchpad, not the owner, not dev_buy, bad parameters, launch before parameters, launched', async () => {
    await expect(createDevBuyService({ store, now }).setParams('moon', { ownerKeyId: OWNER }, input)).rejects.toMatchObject({ code: 'dev_buy_unavailable' })
    const devBuy = createDevBuyService({ store, now, chain })
    await expect(devBuy.setParams('zoracoin', { ownerKeyId: OWNER }, input)).rejects.toMatchObject({ code: 'dev_buy_unavailable' })
    await expect(devBuy.setParams('moon', { ownerKeyId: 'key_other' }, input)).rejects.toMatchObject({ code: 'not_project_owner' })
    await expect(devBuy.setParams('plain', { ownerKeyId: OWNER }, input)).rejects.toMatchObject({ code: 'not_dev_buy_project' })
    await expect(devBuy.setParams('nosuch', 'operator', input)).rejects.toMatchObject({ code: 'project_not_found' })
    for (const bad of [{ name: ' ' }, { symbol: 'S'.repeat(17) }, { name: 'a\u001b[2Jb' }, { metadata: 'm'.repeat(2_001) }]) {
      await expect(devBuy.setParams('moon', 'operator', { ...input, ...bad })).rejects.toMatchObject({ code: 'invalid_dev_buy_params' })
    }
    await expect(devBuy.setParams('moon', 'operator', { ...input, tokenAdmin: '0x123' })).rejects.toMatchObject({ code: 'invalid_address' })
    await expect(devBuy.setParams('moon', 'operator', { ...input, lockSeconds: -1 })).rejects.toMatchObject({ code: 'invalid_lock_seconds' })
    await expect(devBuy.setParams('moon', 'operator', { ...input, vestingSeconds: 1.5 })).rejects.toMatchObject({ code: 'invalid_vesting_seconds' })
    // No owner key and no tokenAdmin: nobody to name as the token's admin.
    await expect(devBuy.setParams('orphan', 'operator', { name: 'Moon', symbol: 'MOON' })).rejects.toMatchObject({ code: 'invalid_dev_buy_params' })
    await expect(devBuy.launch('moon', 'operator')).rejects.toMatchObject({ code: 'dev_buy_no_params' })
    expect((await project()).devBuy).toBeUndefined()

    await devBuy.setParams('moon', 'operator', input)
    const current = await project()
    await store.batch(
      projectWriteOps(store, current, {
        ...current,
        launch: { chain: 'base', tokenAddress: ADMIN, symbol: 'X', name: 'X', decimals: 18, launchedAt: 1 },
      }),
    )
    await expect(devBuy.launch('moon', 'operator')).rejects.toMatchObject({ code: 'dev_buy_launched' })
  })
})
