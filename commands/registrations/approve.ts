import { Args, Flags } from '@oclif/core'
import type { ApproveRegistrationResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'
import { CHAIN_KEYS, type ChainKey } from '../../src/chain/chain-keys.ts'
import { LAUNCH_METHODS, LAUNCHPADS, type LaunchMethod, type Launchpad } from '../../src/domain/records.ts'

export default class RegistrationsApprove extends OperatorCommand {
  static override description =
    "Approve a registration: create the project (profile from the submission, verified launch mark set) and issue the owner's API key, shown once"
  static override examples = [
    '<%= config.bin %> registrations approve 01J... --slug moonbeam --creator 0x1234... --symbol MOON --name "Moonbeam" --launchpad clanker --chain base',
    '<%= config.bin %> registrations approve 01J... --slug moonbeam --creator 0x1234... --expected-token 0xabcd... --launchpad zora --chain base',
  ]
  static override args = { id: Args.string({ required: true, description: 'registration id (from registrations list)' }) }
  static override flags = {
    slug: Flags.string({ required: true, description: 'project slug (lower-case letters, digits, -)' }),
    creator: Flags.string({
      required: true,
      description: 'the deployer the launch will be sent by (the factory caller / transaction sender): only a launch it sends binds the project',
    }),
    'expected-token': Flags.string({
      description: 'the token address expected at launch, when known: with the deployer, only that token binds (sent by anyone else it is rejected)',
    }),
    symbol: Flags.string({
      description:
        "the token's symbol, exactly as the token will report it: with the deployer, a launch of that symbol binds. Without --symbol or --expected-token a launch waits for your confirmation (prebuy launches confirm)",
    }),
    name: Flags.string({ description: "the token's name (with --symbol): when given, a launch must have it too", dependsOn: ['symbol'] }),
    launchpad: Flags.string({ required: true, options: [...LAUNCHPADS] }),
    chain: Flags.string({ required: true, options: [...CHAIN_KEYS] }),
    method: Flags.string({ options: [...LAUNCH_METHODS], default: 'open_market' }),
    label: Flags.string({ description: "label of the owner's API key (default: the slug)" }),
  }

  async run(): Promise<ApproveRegistrationResult> {
    const { args, flags } = await this.parse(RegistrationsApprove)
    const client = await this.adminClient(flags)
    const result = await client.approveRegistration(args.id, {
      slug: flags.slug,
      creator: flags.creator,
      launchpad: flags.launchpad as Launchpad,
      chain: flags.chain as ChainKey,
      method: flags.method as LaunchMethod,
      ...(flags['expected-token'] === undefined ? {} : { expectedToken: flags['expected-token'] }),
      ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }),
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags.label === undefined ? {} : { label: flags.label }),
    })
    this.log(`Approved registration ${args.id}: project ${result.project.slug} (${result.project.launchpad} on ${result.project.chain})`)
    if (!result.project.expectedTokenAddress && !result.project.expectedSymbol && result.project.launchMethod !== 'dev_buy') {
      this.warn('No second fact recorded (--symbol or --expected-token): its launch will wait for your confirmation (prebuy launches candidates).')
    }
    for (const warning of result.deployerWarnings ?? []) this.warn(warning)
    this.log(`Owner key label:  ${result.key.label}`)
    this.log(`Owner wallet:     ${result.key.serviceWalletAddress}`)
    this.log(`Owner API key:    ${result.key.apiKey}`)
    this.log('The key is shown once: send it to the submitter now; it cannot be recovered.')
    return result
  }
}
