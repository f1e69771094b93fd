import { Flags } from '@oclif/core'
import { DEVNET_CLANKER_MEV_MODULES, type DevnetLaunchResult } from '../../src/admin-api/contract.ts'
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
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111... --mev-module block_delay   # Clanker v4.0: the first 2 blocks locked',
    '<%= config.bin %> devnet launch --launchpad clanker --creator 0x1111... --mev-module sniper_auction_v0 --auction-bid-eth 0.001   # v4.0 auction, round 1 won',
    '<%= config.bin %> devnet launch --launchpad doppler --creator 0x1111... --rehype --rehype-deployment fixed   # the July 2026 rehype plugin',
    '<%= config.bin %> devnet launch --launchpad doppler --creator 0x1111... --static-fee 5000   # no fee schedule: 0.5% LP fee',
    '<%= config.bin %> devnet launch --launchpad doppler --creator 0x1111... --swap-restrictor-approved 0x2222... --swap-restrictor-max 1000000   # unsupported',
    '<%= config.bin %> devnet launch --launchpad doppler --creator 0x1111... --balance-limit-max 1000000 --balance-limit-seconds 60   # gated 60 s',
    '<%= config.bin %> devnet launch --launchpad zora --creator 0x1111... --trend-coin --symbol TREND   # a trend coin',
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
        'clanker only: a third party bids this much ETH and wins the first auction round (launch + 2) of SniperAuctionV2 (the fee decay then starts at that round) or, with --mev-module sniper_auction_v0, of SniperAuctionV0 (the next auction is 2 blocks on)',
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
    'trend-coin': Flags.boolean({
      description: 'zora only: a trend coin (permissionless, named by its ticker --symbol, paired with ZORA, announced by TrendCoinCreated)',
    }),
    'mev-module': Flags.string({
      options: [...DEVNET_CLANKER_MEV_MODULES],
      description:
        "clanker only: the MEV module: sniper_auction_v2 (default, Base's v4.1 one, with the sniper fee) or Clanker v4.0's sniper_auction_v0 (auction blocks, no fee) or block_delay (the first 2 blocks locked, no fee); the v4.0 ones take no fee flags",
    }),
    'dev-buy-recipient': Flags.string({
      description: "clanker, with --dev-buy-usdc: who receives the dev buy's tokens (default: the creator)",
      dependsOn: ['dev-buy-usdc'],
    }),
    positions: Flags.string({
      description:
        'clanker only: the LP locker positions as JSON, e.g. \'[{"tickLower":-230400,"tickUpper":-120000,"bps":10000}]\' (ticks as if the token were currency0, spacing 200, bps adding up to 10000, at most 7)',
    }),
    'rehype-deployment': Flags.string({
      options: ['sdk', 'fixed'],
      dependsOn: ['rehype'],
      description:
        "doppler, with --rehype: the plugin deployment, sdk (default: doppler-sdk 1.0.30's, dividing by 800,000 as deployed) or fixed (July 2026, 1e6)",
    }),
    'static-fee': Flags.integer({
      min: 0,
      max: 999_999,
      description: 'doppler only: a DopplerHookInitializer pool without a plugin at this static LP fee (pips): no fee schedule, priced at the LP fee',
    }),
    'swap-restrictor-approved': Flags.string({
      dependsOn: ['swap-restrictor-max'],
      description:
        'doppler only: a pool with the SwapRestrictorDopplerHook plugin; comma-separated senders it lets buy (prebuy does not buy such a launch: reported unsupported)',
    }),
    'swap-restrictor-max': Flags.string({
      dependsOn: ['swap-restrictor-approved'],
      description: 'with --swap-restrictor-approved: tokens each approved sender may buy (decimal)',
    }),
    'balance-limit-max': Flags.string({
      dependsOn: ['balance-limit-seconds'],
      description:
        'doppler only: a DopplerERC20V1 asset; no holder above this many tokens (decimal) until --balance-limit-seconds (the launch is gated until then)',
    }),
    'balance-limit-seconds': Flags.integer({
      min: 1,
      dependsOn: ['balance-limit-max'],
      description: "with --balance-limit-max: seconds after the chain's latest block the limit ends",
    }),
    'token-side': Flags.string({
      options: ['currency0', 'currency1'],
      description: 'which side of its paired asset the token sorts on (a salt is searched for)',
    }),
    salt: Flags.string({ description: "the token's CREATE2 salt (bytes32 hex), for a launch at a predicted address" }),
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
      ...(flags['trend-coin'] ? { trendCoin: true } : {}),
      ...(flags['mev-module'] === undefined ? {} : { mevModule: flags['mev-module'] as (typeof DEVNET_CLANKER_MEV_MODULES)[number] }),
      ...(flags['dev-buy-recipient'] === undefined ? {} : { devBuyRecipient: flags['dev-buy-recipient'] }),
      ...(flags.positions === undefined ? {} : { positions: this.positions(flags.positions) }),
      ...(flags['rehype-deployment'] === undefined ? {} : { rehypeDeployment: flags['rehype-deployment'] as 'sdk' | 'fixed' }),
      ...(flags['static-fee'] === undefined ? {} : { staticFee: flags['static-fee'] }),
      ...(flags['swap-restrictor-approved'] === undefined || flags['swap-restrictor-max'] === undefined
        ? {}
        : { swapRestrictor: { approved: flags['swap-restrictor-approved'].split(',').map((a) => a.trim()), maxAmount: flags['swap-restrictor-max'] } }),
      ...(flags['balance-limit-max'] === undefined || flags['balance-limit-seconds'] === undefined
        ? {}
        : { balanceLimit: { maxBalance: flags['balance-limit-max'], seconds: flags['balance-limit-seconds'] } }),
      ...(flags['token-side'] === undefined ? {} : { tokenSide: flags['token-side'] as 'currency0' | 'currency1' }),
      ...(flags.salt === undefined ? {} : { salt: flags.salt }),
    })
    this.log(`Launched ${result.token} on ${result.launchpad} (${result.chain}) in block ${result.blockNumber}, sent by ${result.sender}`)
    this.log(`Paired:  ${result.paired.kind} (${result.paired.address})`)
    if (result.devBuyEth !== undefined) this.log(`Dev buy: ${result.devBuyEth} ETH`)
    this.log(`Pool id: ${result.poolId}`)
    this.log(`Tx:      ${result.txHash}`)
    if (result.unsupported) this.log(`Unsupported: ${result.unsupported} (a genuine launch prebuy does not buy)`)
    if (result.auctionBid) {
      this.log(
        `Auction: round ${result.auctionBid.round} won by ${result.auctionBid.bidder} in block ${result.auctionBid.blockNumber} for ${result.auctionBid.paymentEth} ETH`,
      )
    }
    return result
  }

  /** `--positions` JSON: an array of {tickLower, tickUpper, bps}; the admin API checks the numbers, the devnet locker the rest. */
  private positions(text: string): Array<{ tickLower: number; tickUpper: number; bps: number }> {
    try {
      return JSON.parse(text) as Array<{ tickLower: number; tickUpper: number; bps: number }>
    } catch {
      return this.error('bad --positions: want a JSON array of {"tickLower", "tickUpper", "bps"}', { exit: 2 })
    }
  }
}
