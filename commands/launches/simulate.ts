import { Args, Flags } from '@oclif/core'
import type { LaunchSimulation } from '../../src/admin-api/contract.ts'
import { formatTable } from '../../src/admin-client/cli/format.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class LaunchesSimulate extends OperatorCommand {
  static override description =
    "What a project's launch would do with its live order book and the buyers' balances now: open-market demand by price limit, placed on the launch fee curve of the project's launchpad (the spot FDV each slice needs, and from the starting FDV the block it becomes eligible in); for a pooled_otc offer, the settlement (fill ratio, each order's spend and tokens); for a dev_buy launch, the single buy (size, price, resulting market cap, each order's allocation)"
  static override examples = [
    '<%= config.bin %> launches simulate moon',
    '<%= config.bin %> launches simulate moon --start-fdv 250000',
    '<%= config.bin %> launches simulate moon --json',
  ]
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    'start-fdv': Flags.string({
      description:
        "the launch's starting spot FDV in USD to place the open-market demand from (default: the launchpad's default start where it has one: Clanker's)",
    }),
  }

  async run(): Promise<LaunchSimulation> {
    const { args, flags } = await this.parse(LaunchesSimulate)
    const startFdv = flags['start-fdv']
    const simulation = await (await this.adminClient(flags)).simulateLaunch(args.slug, startFdv === undefined ? {} : { startFdvUsdc: startFdv })
    this.log(`${simulation.slug} (${simulation.launchMethod}), from the order book and balances at ${simulation.generatedAt}`)
    this.log('Open-market demand (a slice buys once the effective market cap is at or below its limit):')
    this.log(
      simulation.demand.length === 0
        ? '  no active orders'
        : formatTable(
            simulation.demand.map((s) => ({
              limit: s.maxFdvUsdc === null ? 'none' : `$${s.maxFdvUsdc}`,
              orders: s.orderCount,
              funded: s.fundedSpendUsdc,
              eligible: s.eligibleFundedSpendUsdc,
            })),
            ['limit', 'orders', 'funded', 'eligible'],
          ),
    )
    const curve = simulation.openMarket
    if (curve) {
      const start =
        curve.startFdvUsdc === null
          ? 'no starting FDV known (--start-fdv)'
          : `from a starting FDV of $${curve.startFdvUsdc}${curve.startFdvSource === 'launchpad_default' ? ' (the launchpad default)' : ''}`
      this.log(
        `On the ${curve.launchpad} launch curve (${curve.reference}; a block every ${curve.blockSeconds} s): first buys ${curve.firstSwapAfterSeconds} s after launch at ${curve.firstSwapFeePercent}% in fees, ${curve.settledFeePercent}% from ${curve.settledAfterSeconds} s; ${start}:`,
      )
      if (curve.slices.length > 0)
        this.log(
          formatTable(
            curve.slices.map((s) => ({
              limit: s.maxFdvUsdc === null ? 'none' : `$${s.maxFdvUsdc}`,
              funded: s.fundedSpendUsdc,
              'spot at first buy': s.maxSpotFdvAtFirstSwapUsdc === null ? 'any' : `≤ $${s.maxSpotFdvAtFirstSwapUsdc}`,
              'spot settled': s.maxSpotFdvSettledUsdc === null ? 'any' : `≤ $${s.maxSpotFdvSettledUsdc}`,
              'from the start':
                s.eligibleAtStart === null
                  ? curve.startFdvUsdc === null
                    ? '-'
                    : 'waits for the price'
                  : `+${s.eligibleAtStart.afterSeconds} s (${s.eligibleAtStart.feePercent}%)`,
              'cap after the demand ahead': s.effectiveCapWhenReachedUsdc === null ? '-' : `$${s.effectiveCapWhenReachedUsdc} after $${s.demandAheadUsdc}`,
            })),
            ['limit', 'funded', 'spot at first buy', 'spot settled', 'from the start', 'cap after the demand ahead'],
          ),
        )
    }
    const otc = simulation.otc
    if (otc) {
      this.log(
        `OTC at an FDV of $${otc.fdvUsdc}: demand $${otc.demandUsdc} for ${otc.offeredTokens} tokens${otc.oversubscribed ? ' (oversubscribed: scaled down pro rata)' : ''}; fill ratio ${(otc.fillRatio * 100).toFixed(2)}%, ${otc.soldTokens} sold, ${otc.unsoldTokens} returned`,
      )
      if (otc.fills.length > 0)
        this.log(
          formatTable(
            otc.fills.map((f) => ({ key: f.keyId, spend: f.spendUsdc, tokens: f.tokens, credited: f.creditedTokens })),
            ['key', 'spend', 'tokens', 'credited'],
          ),
        )
      for (const s of otc.skipped) this.log(`  left out: ${s.keyId} (${s.reason === 'no_balance' ? 'nothing to spend' : 'limit below the OTC FDV'})`)
    } else if (simulation.launchMethod === 'pooled_otc') this.log('OTC: no offer yet (prebuy otc set)')
    const devBuy = simulation.devBuy
    if (devBuy) {
      this.log(
        `Dev buy${devBuy.tokenAddress ? ` of ${devBuy.tokenAddress}` : ''}: $${devBuy.spendUsdc} (${devBuy.ethIn} ETH) buys ${devBuy.boughtTokens} tokens at an average FDV of $${devBuy.averageFdvUsdc}; it leaves an effective market cap of ${devBuy.marginalCapUsdc === null ? 'n/a' : `$${devBuy.marginalCapUsdc}`}; fee ${devBuy.feeTokens}`,
      )
      if (devBuy.allocations.length > 0)
        this.log(
          formatTable(
            devBuy.allocations.map((a) => ({ key: a.keyId, spend: a.spendUsdc, tokens: a.tokens })),
            ['key', 'spend', 'tokens'],
          ),
        )
      for (const e of devBuy.excluded) this.log(`  left out: ${e.keyId} (${e.reason.replaceAll('_', ' ')})`)
    } else if (simulation.launchMethod === 'dev_buy') this.log('Dev buy: no launch parameters yet, or launched already (prebuy devbuy show)')
    return simulation
  }
}
