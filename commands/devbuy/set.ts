import { Args, Flags } from '@oclif/core'
import type { DevBuyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { devBuyLines } from '../../src/admin-client/cli/dev-buy-lines.ts'

export default class DevBuySet extends OperatorCommand {
  static override description =
    "Set (or, until the launch is asked for, replace) a dev_buy project's token parameters on its owner's behalf: what PATCH /projects/{slug}/dev-buy does with the owner's key"
  static override examples = [
    '<%= config.bin %> devbuy set moon --name "Moon" --symbol MOON',
    '<%= config.bin %> devbuy set moon --name "Moon" --symbol MOON --image https://example.org/moon.png --metadata "The moon token"',
    '<%= config.bin %> devbuy set moon --name "Moon" --symbol MOON --lock-seconds 2592000 --vesting-seconds 7776000',
    '<%= config.bin %> devbuy set moon --name "Moon" --symbol MOON --starting-tick -220000 --position=-220000:-150000:6000 --position=-150000:-120000:4000 --lp-fee-bps 200',
  ]
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    name: Flags.string({ required: true, description: 'token name (1 to 64 characters)' }),
    symbol: Flags.string({ required: true, description: 'token symbol (1 to 16 characters)' }),
    image: Flags.string({ description: 'image URL' }),
    metadata: Flags.string({ description: 'free text stored with the token (description, links)' }),
    'token-admin': Flags.string({ description: "the token's admin on the launchpad (default: the owner key's wallet)" }),
    'lock-seconds': Flags.integer({
      description: "buyers' shares are locked this long after the launch block, seconds (0 to 4 years; default 0: no cliff)",
    }),
    'vesting-seconds': Flags.integer({
      description: 'then vest linearly over this many seconds (0 to 4 years; default 0: everything at the cliff; both 0: no lock)',
    }),
    'starting-tick': Flags.integer({
      description: "Clanker's starting tick (tickIfToken0IsClanker: the starting market cap), on the tick spacing 200; with --position",
      dependsOn: ['position'],
    }),
    position: Flags.string({
      multiple: true,
      description:
        'an LP position as LOWER:UPPER:BPS (ticks as if the token were currency0, its share of the pool supply); repeat up to 7, shares adding up to 10000; with --starting-tick',
      dependsOn: ['starting-tick'],
    }),
    'lp-fee-bps': Flags.integer({ description: 'the static LP fee, basis points (0 to 1000; default 100 with --starting-tick)', dependsOn: ['starting-tick'] }),
  }

  async run(): Promise<DevBuyResult> {
    const { args, flags } = await this.parse(DevBuySet)
    const positions = (flags.position ?? []).map((text) => {
      const parts = text.split(':')
      const [tickLower, tickUpper, bps] = parts.map(Number)
      if (parts.length !== 3 || ![tickLower, tickUpper, bps].every(Number.isInteger)) {
        this.error(`bad --position ${text}: want LOWER:UPPER:BPS`, { exit: 2 })
      }
      return { tickLower: tickLower!, tickUpper: tickUpper!, bps: bps! }
    })
    const startingTick = flags['starting-tick']
    const result = await (await this.adminClient(flags)).setDevBuy(args.slug, {
      name: flags.name,
      symbol: flags.symbol,
      ...(flags.image === undefined ? {} : { image: flags.image }),
      ...(flags.metadata === undefined ? {} : { metadata: flags.metadata }),
      ...(flags['token-admin'] === undefined ? {} : { tokenAdmin: flags['token-admin'] }),
      ...(flags['lock-seconds'] === undefined ? {} : { lockSeconds: flags['lock-seconds'] }),
      ...(flags['vesting-seconds'] === undefined ? {} : { vestingSeconds: flags['vesting-seconds'] }),
      ...(startingTick === undefined ? {} : { pool: { startingTick, positions, lpFeeBps: flags['lp-fee-bps'] ?? 100 } }),
    })
    for (const line of devBuyLines(result)) this.log(line)
    return result
  }
}
