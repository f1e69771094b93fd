import { Flags } from '@oclif/core'
import type { DevnetLaunchResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'
import { LAUNCHPADS, type Launchpad } from '../../src/domain/records.ts'

export default class DevnetLaunch extends OperatorCommand {
  static override description =
    'Devnet only: launch a token on a devnet launchpad as the creator (impersonated); a registered project with that creator is detected and its orders execute'
  static override examples = [
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111111111111111111111111111111111111111',
    '<%= config.bin %> devnet launch --launchpad doppler --creator 0x1111... --name Moon --symbol MOON --start-fee 500000 --end-fee 10000 --decay-seconds 20',
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111... --sender 0x2222...   # a forged launch: rejected',
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111... --auction-bid-eth 0.001   # a sniper wins the first auction round',
    '<%= config.bin %> devnet launch --launchpad zora --creator 0x1111... --paired zora   # a content coin paired with ZORA',
    '<%= config.bin %> devnet launch --launchpad zora --creator 0x1111... --creator-coin   # a creator coin (pairs with ZORA)',
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111... --dev-buy-usdc 500   # the creator buys in the deployment',
    '<%= config.bin %> devnet launch --launchpad clanker_v5 --creator 0x1111... --end-fee 50000   # Clanker v5: 5% buy tax, sniper fee 99% -> 5% over 20 s',
    '<%= config.bin %> devnet launch --launchpad clanker_v5 --creator 0x1111... --start-fee 30000 --end-fee 30000 --paired weth   # 3% tax, no sniper fee, WETH pair',
  ]
  static override flags = {
    launchpad: Flags.string({ required: true, options: [...LAUNCHPADS] }),
    creator: Flags.string({ required: true, description: 'the creator the launch names (token admin / payout recipient)' }),
    sender: Flags.string({ description: 'who sends the launch, impersonated (default: the creator); the project binds only to its registered deployer' }),
    chain: Flags.string({ options: [...CHAIN_KEYS], default: 'base' }),
    name: Flags.string({ description: 'token name' }),
    symbol: Flags.string({ description: 'token symbol' }),
    'start-fee': Flags.integer({
      min: 0,
      max: 1_000_000,
      description:
        "launch (sniper) fee at launch, pips (1,000,000 = 100%); clanker, doppler and clanker_v5 (990000: sniper fee on, or equal to --end-fee: off); Zora's is fixed by its hook",
    }),
    'end-fee': Flags.integer({ min: 0, max: 1_000_000, description: 'fee once the decay is over, pips; clanker_v5: the buy (and sell) tax, 10000 to 100000' }),
    'decay-seconds': Flags.integer({ min: 1, description: 'seconds over which the fee decays (clanker_v5: 20, the documented sniper window)' }),
    'auction-bid-eth': Flags.string({
      description:
        'clanker only: a third party bids this much ETH and wins the first SniperAuctionV2 round (launch + 2); the fee decay then starts at that round',
    }),
    paired: Flags.string({
      options: ['weth', 'eth', 'zora', 'coin'],
      description:
        'what the token pairs with: clanker weth; doppler weth (default, as Bankr) or eth (a native-ETH numeraire); zora eth (default), zora or coin (a creator coin: --paired-coin); clanker_v5 eth (default) or weth',
    }),
    'paired-coin': Flags.string({ description: 'with --paired coin (zora): the creator coin the content coin pairs with' }),
    'dev-buy-usdc': Flags.string({
      description: 'clanker only: a dev buy worth this much stablecoin (paid in ETH) in the deployment, for the creator; the launch is priced after it',
    }),
    'dynamic-fee': Flags.boolean({ description: "clanker only: the dynamic-fee hook (clanker-sdk's Dynamic3: 1% base, up to 3%) instead of the static 1%" }),
    rehype: Flags.boolean({
      description: "doppler only: a rehype pool as Bankr's current ones (0.7% LP fee, the decaying fee taken from the output by the Doppler hook)",
    }),
    'creator-coin': Flags.boolean({ description: 'zora only: launch a creator coin (paired with ZORA, announced by CreatorCoinCreated)' }),
  }

  async run(): Promise<DevnetLaunchResult> {
    const { flags } = await this.parse(DevnetLaunch)
    const client = await this.adminClient(flags)
    const result = await client.devnetLaunch({
      launchpad: flags.launchpad as Launchpad,
      creator: flags.creator,
      ...(flags.sender === undefined ? {} : { sender: flags.sender }),
      chain: flags.chain as ChainKey,
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }),
      ...(flags['start-fee'] === undefined ? {} : { startFee: flags['start-fee'] }),
      ...(flags['end-fee'] === undefined ? {} : { endFee: flags['end-fee'] }),
      ...(flags['decay-seconds'] === undefined ? {} : { decaySeconds: flags['decay-seconds'] }),
      ...(flags['auction-bid-eth'] === undefined ? {} : { auctionBidEth: flags['auction-bid-eth'] }),
      ...(flags.paired === undefined ? {} : { paired: flags.paired as 'weth' | 'eth' | 'zora' | 'coin' }),
      ...(flags['paired-coin'] === undefined ? {} : { pairedCoin: flags['paired-coin'] }),
      ...(flags['creator-coin'] ? { creatorCoin: true } : {}),
      ...(flags['dev-buy-usdc'] === undefined ? {} : { devBuyUsdc: flags['dev-buy-usdc'] }),
      ...(flags['dynamic-fee'] ? { dynamicFee: true } : {}),
      ...(flags.rehype ? { rehype: true } : {}),
    })
    this.log(`Launched ${result.token} on ${result.launchpad} (${result.chain}) in block ${result.blockNumber}, sent by ${result.sender}`)
    this.log(`Paired:  ${result.paired.kind} (${result.paired.address})`)
    if (result.devBuyEth !== undefined) this.log(`Dev buy: ${result.devBuyEth} ETH`)
    this.log(`Pool id: ${result.poolId}`)
    this.log(`Tx:      ${result.txHash}`)
    if (result.auctionBid) {
      this.log(
        `Auction: round ${result.auctionBid.round} won by ${result.auctionBid.bidder} in block ${result.auctionBid.blockNumber} for ${result.auctionBid.paymentEth} ETH`,
      )
    }
    return result
  }
}
