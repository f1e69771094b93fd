import { encodeErrorResult, getAddress, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeRevertReason } from '../../../../src/wallets/bundler/decode-revert-reason.ts'

describe('revert reasons', () => {
  it('decodes Error(string), Panic and leaves custom errors raw', () => {
    const abi = [
      { type: 'error', name: 'Error', inputs: [{ name: 'm', type: 'string' }] },
      { type: 'error', name: 'Panic', inputs: [{ name: 'c', type: 'uint256' }] },
      { type: 'error', name: 'Custom', inputs: [] },
    ] as const
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Error', args: ['ERC20: no'] }))).toEqual({
      name: 'Error',
      args: ['ERC20: no'],
      message: 'ERC20: no',
    })
    expect(decodeRevertReason(encodeErrorResult({ abi, errorName: 'Panic', args: [0x11n] }))).toEqual({ name: 'Panic', args: [0x11n], message: 'panic 0x11' })
    const custom = encodeErrorResult({ abi, errorName: 'Custom' })
    expect(decodeRevertReason(custom)).toEqual({ name: 'unknown', args: [], message: `custom error ${custom}` })
    expect(decodeRevertReason(custom).message).toMatch(/^custom error 0x/)
    const router = [
      {
        type: 'error',
        name: 'TooLittleReceived',
        inputs: [
          { name: 'got', type: 'uint256' },
          { name: 'min', type: 'uint256' },
        ],
      },
    ] as const
    expect(decodeRevertReason(encodeErrorResult({ abi: router, errorName: 'TooLittleReceived', args: [90n, 100n] }))).toEqual({
      name: 'TooLittleReceived',
      args: [90n, 100n],
      message: 'TooLittleReceived(90, 100)',
    })
    expect(decodeRevertReason('0x')).toEqual({ name: 'without_reason', args: [], message: 'reverted without a reason' })
  })
})

describe('revert reasons: names', () => {
  it('names the known errors by default, and calls data too short for a selector a revert without a reason', () => {
    const erc20 = parseAbi(['error ERC20InsufficientBalance(address sender, uint256 balance, uint256 needed)'])
    const sender = '0x000000000000000000000000000000000000dEaD'
    expect(decodeRevertReason(encodeErrorResult({ abi: erc20, errorName: 'ERC20InsufficientBalance', args: [sender, 1n, 2n] }))).toEqual({
      name: 'ERC20InsufficientBalance',
      args: [sender, 1n, 2n],
      message: `ERC20InsufficientBalance(${sender}, 1, 2)`,
    })
    expect(decodeRevertReason('0x1234')).toEqual({ name: 'without_reason', args: [], message: 'reverted without a reason' })
  })

  it('sees through the PoolManager’s WrappedError to the hook’s own error (a launch gating revert keeps its name)', () => {
    const hook = '0x00000000000000000000000000000000000000a1'
    const abi = parseAbi(['error WrappedError(address target, bytes4 selector, bytes reason, bytes details)', 'error NotAuctionBlock()'])
    const inner = encodeErrorResult({ abi, errorName: 'NotAuctionBlock' })
    const wrapped = encodeErrorResult({ abi, errorName: 'WrappedError', args: [hook, '0x575e24b4', inner, '0x'] })
    expect(decodeRevertReason(wrapped)).toEqual({ name: 'NotAuctionBlock', args: [], message: `NotAuctionBlock() (in ${getAddress(hook)})` })
  })
})
