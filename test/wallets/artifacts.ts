import type { Abi } from 'viem'
import devnetLaunchToken from '../../devnet/contracts/artifacts/DevnetLaunchToken.json' with { type: 'json' }
import weth9 from '../../devnet/contracts/artifacts/WETH9.json' with { type: 'json' }
import simpleAccountFactory from '@account-abstraction/contracts/artifacts/SimpleAccountFactory.json' with { type: 'json' }

/** The compiled contracts the wallet tests deploy or call (read-only imports of checked-in artifacts). */
export const artifacts = {
  DevnetLaunchToken: devnetLaunchToken as unknown as { abi: Abi; bytecode: string },
  WETH9: weth9 as unknown as { abi: Abi; bytecode: string },
  SimpleAccountFactory: simpleAccountFactory as unknown as { abi: Abi },
}
