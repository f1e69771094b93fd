import { encodeAbiParameters, getAddress, type Log, pad, toEventSelector } from 'viem'
import { describe, expect, it } from 'vitest'
import { ENTRY_POINTS, launchDeployer } from '../../../src/launchpads/launch-deployer.ts'

const address = (n: number) => getAddress(`0x${n.toString(16).padStart(40, '0')}`)
const USER_OPERATION_EVENT = toEventSelector(
  'UserOperationEvent(bytes32 indexed userOpHash, address indexed sender, address indexed paymaster, uint256 nonce, bool success, uint256 actualGasCost, uint256 actualGasUsed)',
)
const BUNDLER = address(0xb0)

const log = (logIndex: number, emitter: `0x${string}`, topics: `0x${string}`[] = [`0x${'11'.repeat(32)}`]): Log =>
  ({ logIndex, address: emitter, topics, data: '0x' }) as unknown as Log
const userOperationEvent = (logIndex: number, entryPoint: `0x${string}`, sender: `0x${string}`): Log => ({
  ...log(logIndex, entryPoint, [USER_OPERATION_EVENT, `0x${'22'.repeat(32)}`, pad(sender), pad(address(0))]),
  data: encodeAbiParameters([{ type: 'uint256' }, { type: 'bool' }, { type: 'uint256' }, { type: 'uint256' }], [0n, true, 1n, 1n]),
})

describe('launchDeployer', () => {
  it('is the transaction sender for a plain transaction', () => {
    const launch = log(3, address(0xfac))
    expect(launchDeployer(address(0xc1), [log(1, address(9)), launch, log(4, address(9))], launch)).toBe(address(0xc1))
  })

  it('is the smart account of the operation that emitted the launch when an EntryPoint ran it (v0.7 and v0.6)', () => {
    for (const entryPoint of ENTRY_POINTS) {
      // Two operations in one handleOps: each one's logs, then its UserOperationEvent.
      const first = log(1, address(0xfac))
      const second = log(4, address(0xfac))
      const logs = [first, userOperationEvent(2, entryPoint, address(0xa1)), log(3, entryPoint), second, userOperationEvent(5, entryPoint, address(0xa2))]
      expect(launchDeployer(BUNDLER, logs, first)).toBe(address(0xa1))
      expect(launchDeployer(BUNDLER, logs, second)).toBe(address(0xa2))
    }
  })

  it('ignores a UserOperationEvent look-alike from any other contract', () => {
    const launch = log(1, address(0xfac))
    expect(launchDeployer(address(0xc1), [launch, userOperationEvent(2, address(0xbad), address(0xa1))], launch)).toBe(address(0xc1))
  })
})
