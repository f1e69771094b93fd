import { type Address, encodeAbiParameters, erc20Abi, formatEther, type Hex, maxUint256, parseAbi, parseEther, parseEventLogs, toFunctionSelector } from 'viem'
import { jsonRpc } from '../anvil/json-rpc.ts'
import type { ChainConfig } from '../../src/chain/chain-keys.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import type { LaunchedToken } from './launch-token.ts'
import { confirmDevnetTx, devnetPublicClient, submitDevnetCall } from './send-devnet-tx.ts'
import { prepareDevnetTrader, swapExactUsdcForToken } from './swap-exact-usdc-for-token.ts'

/** The third party that bids in devnet auctions (a fixed address, impersonated: no nonce shared with anyone). */
export const DEVNET_BIDDER: Address = '0xb1dde00000000000000000000000000000000b1d'
/** What the bidder's swap spends; the bid itself is the payment to the module. */
const BID_SWAP_USDC = '10'

const MODULE_ABI = parseAbi([
  'function gasPeg(bytes32 poolId) view returns (uint256)',
  'function paymentPerGasUnit() view returns (uint256)',
  'event AuctionWon(bytes32 indexed poolId, address indexed payee, uint256 paymentAmount, uint256 round)',
])

/**
 * The hook data of a bid: SniperAuctionV2 decodes {mevModuleSwapData: abi.encode(payee), poolExtensionSwapData} from it
 * (clanker-devco/v4-contracts, SniperAuctionV2.sol); a plain swap without it reverts in an auction block.
 */
export const auctionHookData = (payer: Address): Hex =>
  encodeAbiParameters(
    [
      {
        type: 'tuple',
        components: [
          { name: 'mevModuleSwapData', type: 'bytes' },
          { name: 'poolExtensionSwapData', type: 'bytes' },
        ],
      },
    ],
    [{ mevModuleSwapData: encodeAbiParameters([{ type: 'address' }], [payer]), poolExtensionSwapData: '0x' }],
  )

export interface PreparedBidder {
  bidder: Address
  mevModule: Address
  bidWei: bigint
}

export interface WonAuction {
  bidder: Address
  txHash: Hex
  blockNumber: bigint
  paymentEth: string
  round: number
}

/**
 * Readies the devnet bidder before a Clanker launch: stablecoin for its swap, WETH for the bid, the module approved
 * (SniperAuctionV2 takes the payment in WETH with transferFrom: clanker-devco/v4-contracts, SniperAuctionV2.sol).
 */
export async function prepareAuctionBidder(chain: ChainConfig, mevModule: Address, bidEth: string): Promise<PreparedBidder> {
  const bidWei = parseEther(bidEth)
  await prepareDevnetTrader(chain, DEVNET_BIDDER, BID_SWAP_USDC) // impersonates it too
  const weth = chain.addresses.weth
  const deposit = await jsonRpc<Hex>(chain.rpcUrl, 'eth_sendTransaction', [
    { from: DEVNET_BIDDER, to: weth, value: `0x${bidWei.toString(16)}`, data: toFunctionSelector('deposit()') },
  ])
  await confirmDevnetTx(chain, deposit)
  await confirmDevnetTx(
    chain,
    await submitDevnetCall(chain, DEVNET_BIDDER, { address: weth, abi: erc20Abi, functionName: 'approve', args: [mevModule, maxUint256] }),
  )
  return { bidder: DEVNET_BIDDER, mevModule, bidWei }
}

/**
 * Sends the bid for the launch's first auction round and mines it: call it with the chain in manual mining, once the
 * launch block and the one after it are mined, so the bid lands in the auction block (launch + 2). The gas price is
 * the round's peg plus what pays `bidWei` (payment = (tx.gasprice - gasPeg) * paymentPerGasUnit), the payer is named in
 * the hook data as SniperAuctionV2 decodes it ({mevModuleSwapData: abi.encode(payee), poolExtensionSwapData}).
 */
export async function bidInAuctionBlock(chain: ChainConfig, launched: LaunchedToken, prepared: PreparedBidder): Promise<WonAuction> {
  const client = devnetPublicClient(chain)
  const [peg, perGas] = await Promise.all([
    client.readContract({ address: prepared.mevModule, abi: MODULE_ABI, functionName: 'gasPeg', args: [launched.poolId] }),
    client.readContract({ address: prepared.mevModule, abi: MODULE_ABI, functionName: 'paymentPerGasUnit' }),
  ])
  const gasPrice = peg + (prepared.bidWei + perGas - 1n) / perGas
  const hookData = auctionHookData(prepared.bidder)
  const { txHash } = await swapExactUsdcForToken({
    chain,
    token: launched.token,
    trader: prepared.bidder,
    usdc: BID_SWAP_USDC,
    poolKey: launched.poolKey,
    prepared: true,
    submitOnly: true,
    gas: 2_000_000n,
    hookData,
    fees: { maxFeePerGas: gasPrice, maxPriorityFeePerGas: gasPrice },
  })
  const receipt = await confirmDevnetTx(chain, txHash, { allowRevert: true })
  const won = parseEventLogs({
    abi: MODULE_ABI,
    eventName: 'AuctionWon',
    logs: receipt.logs.filter((l) => l.address.toLowerCase() === prepared.mevModule.toLowerCase()),
  })
  if (receipt.status !== 'success' || won.length !== 1) {
    throw new PrebuyError('devnet_tx_reverted', `The auction bid did not win the round (block ${receipt.blockNumber}, ${receipt.status}).`, {
      details: { hash: txHash },
    })
  }
  return {
    bidder: prepared.bidder,
    txHash,
    blockNumber: receipt.blockNumber,
    paymentEth: formatEther(won[0]!.args.paymentAmount),
    round: Number(won[0]!.args.round),
  }
}
