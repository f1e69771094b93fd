import { getAddress, type Hex, parseUnits } from 'viem'
import type { Deployments, DevnetLaunchResult, DevnetSwapResult, FundResult, MineResult, ValidAdminRequest } from '../../src/admin-api/contract.ts'
import { jsonRpc } from '../anvil/json-rpc.ts'
import { CHAIN_KEYS } from '../../src/chain/chain-keys.ts'
import { fundAccount, mineBlocks } from '../chain/faucet.ts'
import type { Devnet } from '../chain/start-devnet.ts'
import { PrebuyError } from '../../src/common/errors.ts'
import { bidInAuctionBlock, prepareAuctionBidder, type WonAuction } from '../launchpads/auction-bid.ts'
import { devnetClankerMevModuleAddress, type LaunchTokenOptions, launchToken, launchTokenOrUnsupported } from '../launchpads/launch-token.ts'
import { devnetPublicClient } from '../launchpads/send-devnet-tx.ts'
import { devBuyWeiForUsdc } from '../launchpads/dev-buy-amount.ts'
import { swapExactUsdcForToken } from '../launchpads/swap-exact-usdc-for-token.ts'
import type { PrebuyWalletService } from '../../src/wallets/create-wallet-service.ts'
import { readDevnetLaunchpads } from '../launchpads/devnet-launchpads.ts'

/** What `prebuy devnet ...` can do on the daemon's own devnet chains; the devnet admin routes only validate and call. */
export interface DevnetOperations {
  fund(request: ValidAdminRequest<'devnetFund'>): Promise<FundResult[]>
  mine(blocks: number): Promise<MineResult>
  deployments(): Promise<Deployments>
  launch(request: ValidAdminRequest<'devnetLaunch'>): Promise<DevnetLaunchResult>
  swap(request: ValidAdminRequest<'devnetSwap'>): Promise<DevnetSwapResult>
}

export interface DevnetOperationsDeps {
  devnet: Devnet
  wallets: Pick<PrebuyWalletService, 'bundlerAddress'>
  /** Where the launch workers record the devnet launchpads (devnet/launchpads.json). */
  dataDir: string
}

export function createDevnetOperations({ devnet, wallets, dataDir }: DevnetOperationsDeps): DevnetOperations {
  return {
    async fund(request) {
      const { chain } = request
      const result = await fundAccount(devnet.chains[chain], request.address, {
        ...(request.usdc === undefined ? {} : { stablecoin: request.usdc }),
        ...(request.eth === undefined ? {} : { eth: request.eth }),
      })
      return [{ chain, address: request.address, usdc: result.stablecoin, eth: result.eth }]
    },

    async mine(blocks) {
      await Promise.all(CHAIN_KEYS.map((key) => mineBlocks(devnet.chains[key], blocks)))
      const numbers = await Promise.all(CHAIN_KEYS.map((key) => jsonRpc<string>(devnet.chains[key].rpcUrl, 'eth_blockNumber')))
      return { chain: 'all', blocks, blockNumbers: Object.fromEntries(CHAIN_KEYS.map((key, i) => [key, BigInt(numbers[i]!).toString()])) }
    },

    async deployments() {
      return {
        deploymentsFile: devnet.deploymentsFile,
        chains: Object.fromEntries(
          CHAIN_KEYS.map((key) => {
            const chain = devnet.chains[key]
            return [key, { chainId: chain.chainId, rpcUrl: chain.rpcUrl, wsUrl: chain.wsUrl, bundler: wallets.bundlerAddress(key), addresses: chain.addresses }]
          }),
        ),
      }
    },

    /**
     * Launches a token naming its creator, sent by `sender` (impersonated; default the creator), on the recorded devnet
     * launchpads, in any devnet launch shape (LaunchTokenOptions: each request field is passed on, launchToken refuses
     * the combinations the launchpad has not); a genuine launch prebuy does not buy (the swap restrictor) is made and
     * reported with its reason.
     */
    async launch(request) {
      const chain = devnet.chains[request.chain]
      const addresses = (await readDevnetLaunchpads(dataDir))[request.chain]
      if (!addresses || addresses.chainId !== chain.chainId) {
        throw new PrebuyError(
          'devnet_launchpads_missing',
          `The devnet launchpads on ${request.chain} are not deployed yet; wait for the daemon to finish starting.`,
        )
      }
      if (request.auctionBidEth !== undefined && request.launchpad !== 'clanker') {
        throw new PrebuyError('invalid_auction_bid', `Only Clanker launches have an auction (SniperAuctionV2); ${request.launchpad} has none to bid in.`)
      }
      // ClankerMevBlockDelay only locks blocks: there is no auction to win.
      if (request.auctionBidEth !== undefined && request.mevModule === 'block_delay') {
        throw new PrebuyError('invalid_auction_bid', 'The block_delay module has no auction to bid in (it only locks the first blocks).')
      }
      if (request.devBuyUsdc !== undefined && request.launchpad !== 'clanker') {
        throw new PrebuyError('invalid_dev_buy', `Only Clanker launches have a dev buy (its DevBuy extension); ${request.launchpad} has none.`)
      }
      const devBuy = request.devBuyUsdc === undefined ? undefined : await devBuyWeiForUsdc(chain, request.devBuyUsdc)
      const suffix = Date.now().toString(36).slice(-4).toUpperCase()
      const creator = getAddress(request.creator)
      const sender = getAddress(request.sender ?? request.creator)
      // A balance limit ends `seconds` after the chain's latest block (the launch lands after it).
      const balanceLimit =
        request.balanceLimit === undefined
          ? undefined
          : {
              maxBalance: parseUnits(request.balanceLimit.maxBalance, 18),
              endsAt: Number((await devnetPublicClient(chain).getBlock()).timestamp) + request.balanceLimit.seconds,
            }
      const options: LaunchTokenOptions = {
        chain,
        addresses,
        launchpad: request.launchpad,
        creator,
        sender,
        name: request.name ?? `Devnet ${request.launchpad} ${suffix}`,
        symbol: request.symbol ?? `D${suffix}`,
        ...(request.startFee === undefined ? {} : { startFee: request.startFee }),
        ...(request.endFee === undefined ? {} : { endFee: request.endFee }),
        ...(request.decaySeconds === undefined ? {} : { decaySeconds: request.decaySeconds }),
        ...(request.paired === undefined ? {} : { paired: request.paired }),
        ...(request.pairedCoin === undefined ? {} : { pairedCoin: getAddress(request.pairedCoin) }),
        ...(request.creatorCoin === undefined ? {} : { creatorCoin: request.creatorCoin }),
        ...(request.trendCoin === undefined ? {} : { trendCoin: request.trendCoin }),
        ...(devBuy ? { devBuyWei: devBuy.wei } : {}),
        ...(request.devBuyRecipient === undefined ? {} : { devBuyRecipient: getAddress(request.devBuyRecipient) }),
        ...(request.dynamicFee === undefined ? {} : { dynamicFee: request.dynamicFee }),
        ...(request.mevModule === undefined ? {} : { mevModule: request.mevModule }),
        ...(request.positions === undefined ? {} : { positions: request.positions }),
        ...(request.rehype === undefined ? {} : { rehype: request.rehype }),
        ...(request.rehypeDeployment === undefined ? {} : { rehypeDeployment: request.rehypeDeployment }),
        ...(request.staticFee === undefined ? {} : { staticFee: request.staticFee }),
        ...(request.swapRestrictor === undefined
          ? {}
          : {
              swapRestrictor: {
                approved: request.swapRestrictor.approved.map((a) => getAddress(a)),
                maxAmount: parseUnits(request.swapRestrictor.maxAmount, 18),
              },
            }),
        ...(balanceLimit ? { balanceLimit } : {}),
        ...(request.tokenSide === undefined ? {} : { tokenSide: request.tokenSide }),
        ...(request.salt === undefined ? {} : { salt: request.salt as Hex }),
      }
      let launched: Awaited<ReturnType<typeof launchTokenOrUnsupported>>
      let auctionBid: WonAuction | undefined
      if (request.auctionBidEth === undefined) {
        launched = await launchTokenOrUnsupported(options)
      } else {
        // The bid must land in the auction block (launch + 2) whatever the block time: the chain mines by hand for the
        // launch, the block after it and the bid's block, then goes back to its block time.
        const module = devnetClankerMevModuleAddress(addresses.clanker, request.mevModule)
        const prepared = await prepareAuctionBidder(chain, module, request.auctionBidEth)
        const anvil = devnet.anvils[request.chain]
        const mode = anvil.miningMode
        await anvil.setMiningMode('manual')
        try {
          const outcome = await launchToken(options)
          launched = { ...outcome, kind: 'launch' }
          await jsonRpc(chain.rpcUrl, 'evm_mine')
          auctionBid = await bidInAuctionBlock(chain, outcome, prepared)
        } finally {
          await anvil.setMiningMode(mode)
        }
      }
      return {
        chain: request.chain,
        launchpad: request.launchpad,
        creator,
        sender,
        token: launched.token,
        paired:
          launched.kind === 'launch'
            ? { kind: launched.launch.paired.kind, address: launched.launch.paired.address }
            : { kind: launched.paired.kind, address: launched.paired.address },
        ...(devBuy ? { devBuyEth: devBuy.eth } : {}),
        poolId: launched.poolId,
        txHash: launched.txHash,
        blockNumber: launched.blockNumber.toString(),
        ...(auctionBid ? { auctionBid: { ...auctionBid, blockNumber: auctionBid.blockNumber.toString() } } : {}),
        ...(launched.kind === 'unsupported' ? { unsupported: launched.reason } : {}),
      }
    },

    /** A third-party buy that moves the token's price. */
    async swap(request) {
      const token = getAddress(request.token)
      const result = await swapExactUsdcForToken({ chain: devnet.chains[request.chain], token, usdc: request.usdc })
      return {
        chain: request.chain,
        token,
        usdc: request.usdc,
        txHash: result.txHash,
        blockNumber: result.blockNumber.toString(),
        tokensOut: result.tokensOut.toString(),
        feePips: result.poolSwap.fee,
      }
    },
  }
}
