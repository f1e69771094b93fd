import { Args, Flags } from '@oclif/core'
import type { LinkSocialResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeysLinkSocial extends OperatorCommand {
  static override description =
    "Link a buyer's social profile to their key (username, URL, follower count: GET /projects/{slug}/buyers lists buyers by followers), or unlink it"
  static override examples = [
    '<%= config.bin %> keys link-social alice --username alice --url https://warpcast.com/alice --followers 1200',
    '<%= config.bin %> keys link-social alice --unlink',
  ]
  static override args = { key: Args.string({ required: true, description: 'key id or label' }) }
  static override flags = {
    username: Flags.string({ description: 'social username', exclusive: ['unlink'] }),
    url: Flags.string({ description: 'profile URL (http or https)', exclusive: ['unlink'] }),
    followers: Flags.integer({ description: 'follower count', min: 0, exclusive: ['unlink'] }),
    'social-id': Flags.integer({ description: 'numeric id on the social network', min: 0, exclusive: ['unlink'] }),
    unlink: Flags.boolean({ description: 'remove the linked profile (followers count as 0)' }),
  }

  async run(): Promise<LinkSocialResult> {
    const { args, flags } = await this.parse(KeysLinkSocial)
    if (!flags.unlink && (flags.username === undefined || flags.url === undefined || flags.followers === undefined)) {
      this.error('give --username, --url and --followers (or --unlink)', { exit: 2 })
    }
    const result = await (await this.adminClient(flags)).linkSocial(
      args.key,
      flags.unlink
        ? { unlink: true }
        : {
            username: flags.username!,
            url: flags.url!,
            followers: flags.followers!,
            ...(flags['social-id'] === undefined ? {} : { socialId: flags['social-id'] }),
          },
    )
    this.log(
      result.social === null
        ? `Unlinked the social profile of ${result.key.label}.`
        : `Linked ${result.key.label} to ${result.social.socialUsername} (${result.social.socialUrl}, ${result.social.followerCount} followers).`,
    )
    return result
  }
}
