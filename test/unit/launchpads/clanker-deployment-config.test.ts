import * as clankerSdk from 'clanker-sdk'
import * as clankerSdkV4 from 'clanker-sdk/v4'
import { type Abi, type Address, type Hex, encodeDeployData, getAddress, getContractAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import {
  CLANKER_DEPLOY_ABI,
  CLANKER_DYNAMIC3,
  type ClankerDeploymentInput,
  clankerDeploymentConfig,
  clankerDeploymentValue,
  clankerDevBuyExtension,
  clankerTokenCreate2Salt,
} from '../../../src/launchpads/clanker/clanker-deployment-config.ts'
import { loadLaunchpadArtifact } from '../../../devnet/launchpads/devnet-artifacts.ts'

/**
 * Our DeploymentConfig builder against clanker-sdk's (the pinned devDependency; `Clanker.getDeployTransaction` of
 * clanker-sdk/v4 encodes what the SDK sends to the real factory on Base): the same struct, field by field, with the same
 * poolData, lockerData, mevModuleData and DevBuy extension data bytes. A devnet config built by the same function is
 * therefore the one the real factory takes.
 */

// The package's type declarations re-export without file extensions, which NodeNext resolution does not follow: the
// values are there at run time, typed here.
type SdkTx = { abi: Abi; args: [Record<string, unknown>]; value?: bigint }
const { Clanker } = clankerSdkV4 as unknown as { Clanker: new () => { getDeployTransaction(token: unknown): Promise<SdkTx> } }
const { CLANKERS, POOL_POSITIONS, FEE_CONFIGS, predictTokenAddressV4 } = clankerSdk as unknown as {
  CLANKERS: {
    clanker_v4: {
      address: Address
      abi: Abi
      token: { abi: Abi; bytecode: Hex }
      related: { locker: Address; devbuy: Address; mevModuleV2: Address; feeStaticHookV2: Address; feeDynamicHookV2: Address }
    }
  }
  POOL_POSITIONS: Record<'Standard' | 'Project', Array<{ tickLower: number; tickUpper: number; positionBps: number }>>
  FEE_CONFIGS: Record<'Dynamic3', Record<string, number | string>>
  predictTokenAddressV4: (args: readonly unknown[], config: unknown, salt: Hex, tokenAdmin: Address) => Address
}

const v4 = CLANKERS.clanker_v4
const ADMIN: Address = '0x1111111111111111111111111111111111111111'
const RECIPIENT: Address = '0x3333333333333333333333333333333333333333'
const SALT: Hex = `0x${'22'.repeat(32)}`
const WETH: Address = '0x4200000000000000000000000000000000000006'

async function sdkDeployment(fees: unknown): Promise<SdkTx> {
  return new Clanker().getDeployTransaction({
    chainId: 8453,
    name: 'Sdk',
    symbol: 'SDK',
    tokenAdmin: ADMIN,
    salt: SALT,
    image: '',
    fees,
    pool: { pairedToken: 'WETH', tickIfToken0IsClanker: -230_400, tickSpacing: 200, positions: POOL_POSITIONS.Project },
    sniperFees: { startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 },
    devBuy: { ethAmount: 0.5, recipient: RECIPIENT },
  })
}

function ours(hook: Address, fee: ClankerDeploymentInput['pool']['fee'], context: string): ClankerDeploymentInput {
  return {
    chainId: 8453,
    token: { admin: ADMIN, name: 'Sdk', symbol: 'SDK', salt: SALT, context },
    pool: { hook, pairedToken: WETH, tickIfToken0IsClanker: -230_400, tickSpacing: 200, fee },
    locker: {
      address: v4.related.locker,
      positions: POOL_POSITIONS.Project.map((p) => ({ tickLower: p.tickLower, tickUpper: p.tickUpper, bps: p.positionBps })),
      rewards: [{ admin: ADMIN, recipient: ADMIN, bps: 10_000 }],
    },
    mevModule: { address: v4.related.mevModuleV2, startingFee: 666_777, endingFee: 41_673, secondsToDecay: 15 },
    extensions: [clankerDevBuyExtension(v4.related.devbuy, { recipient: RECIPIENT, wei: 5n * 10n ** 17n })],
  }
}

describe('clankerDeploymentConfig encodes what clanker-sdk sends to the real factory', () => {
  it('static fee (1% both ways), five positions, sniper fee, a dev buy for another recipient', async () => {
    const sdk = await sdkDeployment({ type: 'static', clankerFee: 100, pairedFee: 100 })
    const context = (sdk.args[0].tokenConfig as { context: string }).context
    const config = clankerDeploymentConfig(ours(v4.related.feeStaticHookV2, { kind: 'static', clankerFee: 10_000, pairedFee: 10_000 }, context))
    expect(config).toEqual(sdk.args[0])
    expect(clankerDeploymentValue(config)).toBe(sdk.value)
  })

  it('dynamic fee: clanker-sdk’s Dynamic3 is CLANKER_DYNAMIC3', async () => {
    const sdk = await sdkDeployment(FEE_CONFIGS.Dynamic3)
    const context = (sdk.args[0].tokenConfig as { context: string }).context
    expect(clankerDeploymentConfig(ours(v4.related.feeDynamicHookV2, CLANKER_DYNAMIC3, context))).toEqual(sdk.args[0])
  })

  it('deployToken and its structs are the published Clanker v4 ABI, in our fragment and in the devnet factory', () => {
    const strip = (x: unknown): unknown => JSON.parse(JSON.stringify(x, (key, value) => (key === 'internalType' || key === 'name' ? undefined : value)))
    const item = (abi: Abi, type: string, name: string) => strip(abi.find((x) => x.type === type && 'name' in x && x.name === name))
    const devnet = loadLaunchpadArtifact('DevnetClankerFactory').abi
    expect(item(CLANKER_DEPLOY_ABI, 'function', 'deployToken')).toEqual(item(v4.abi, 'function', 'deployToken'))
    for (const [type, name] of [
      ['function', 'deployToken'],
      ['function', 'tokenDeploymentInfo'],
      ['function', 'deploymentInfoForToken'],
      ['function', 'enabledLockers'],
      ['function', 'deprecated'],
      ['event', 'TokenCreated'],
      ['event', 'ExtensionTriggered'],
      ...['OnlyOriginatingChain', 'HookNotEnabled', 'LockerNotEnabled', 'ExtensionNotEnabled', 'MevModuleNotEnabled', 'ExtensionMsgValueMismatch'].map((e) => [
        'error',
        e,
      ]),
    ] as const) {
      expect(item(devnet, type, name), `${type} ${name}`).toEqual(item(v4.abi, type, name))
    }
  })

  it('the token address: CREATE2 from the factory with keccak256(abi.encode(tokenAdmin, salt)), as clanker-sdk predicts it', () => {
    const args = ['Sdk', 'SDK', 100_000_000_000n * 10n ** 18n, ADMIN, '', '', '', 8453n] as const
    const initCode = encodeDeployData({ abi: v4.token.abi, bytecode: v4.token.bytecode, args })
    const predicted = getContractAddress({ opcode: 'CREATE2', from: v4.address, salt: clankerTokenCreate2Salt(ADMIN, SALT), bytecode: initCode })
    expect(getAddress(predicted)).toBe(getAddress(predictTokenAddressV4(args, v4, SALT, ADMIN)))
  })
})
