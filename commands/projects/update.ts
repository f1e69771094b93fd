import { readFile } from 'node:fs/promises'
import { Args, Flags } from '@oclif/core'
import type { ProfileUpdate, UpdateProfileResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class ProjectsUpdate extends OperatorCommand {
  static override description =
    "Edit an approved project's public profile (GET /projects) and, while it waits to launch, what binds it to its launch (--creator, --expected-token, --symbol, --name): only the fields given change; --profile-file takes a partial profile as JSON"
  static override examples = [
    '<%= config.bin %> projects update moon --display-name "Moon Protocol" --website-url https://moon.example',
    '<%= config.bin %> projects update moon --bio "First paragraph." --bio "Second paragraph."',
    '<%= config.bin %> projects update moon --profile-file moon-profile.json',
    '<%= config.bin %> projects update moon --expected-token 0xabcd...',
    '<%= config.bin %> projects update moon --symbol MOON --name "Moon Protocol"',
  ]
  static override aliases = ['projects:edit']
  static override args = { slug: Args.string({ required: true, description: 'project slug' }) }
  static override flags = {
    'display-name': Flags.string(),
    'social-id': Flags.integer({ min: 0 }),
    'social-username': Flags.string(),
    'microblog-handle': Flags.string({ description: 'use "none" to clear' }),
    'banner-image-url': Flags.string(),
    'pfp-url': Flags.string(),
    'website-url': Flags.string(),
    bio: Flags.string({ multiple: true, description: 'a paragraph; repeat for several (replaces the whole bio)' }),
    'profile-file': Flags.string({ description: 'JSON file with a partial profile {identity, content, status}; flags override it' }),
    creator: Flags.string({ description: 'the registered deployer a launch must be sent by (before launch only)' }),
    'expected-token': Flags.string({ description: 'the token address expected at launch (before launch only)', exclusive: ['clear-expected-token'] }),
    'clear-expected-token': Flags.boolean({ description: 'forget the expected token address' }),
    symbol: Flags.string({
      description: "the token's symbol as the token will report it: with the deployer, a launch of it binds (before launch only)",
      exclusive: ['clear-symbol'],
    }),
    name: Flags.string({ description: "the token's name, recorded with the symbol (before launch only)", exclusive: ['clear-symbol'] }),
    'clear-symbol': Flags.boolean({ description: 'forget the recorded symbol and name' }),
  }

  async run(): Promise<UpdateProfileResult> {
    const { args, flags } = await this.parse(ProjectsUpdate)
    const fromFile: ProfileUpdate = flags['profile-file'] ? (JSON.parse(await readFile(flags['profile-file'], 'utf8')) as ProfileUpdate) : {}
    const identity = {
      ...fromFile.identity,
      ...(flags['display-name'] === undefined ? {} : { displayName: flags['display-name'] }),
      ...(flags['social-id'] === undefined ? {} : { socialId: flags['social-id'] }),
      ...(flags['social-username'] === undefined ? {} : { socialUsername: flags['social-username'] }),
      ...(flags['microblog-handle'] === undefined ? {} : { microblogHandle: flags['microblog-handle'] === 'none' ? null : flags['microblog-handle'] }),
    }
    const content = {
      ...fromFile.content,
      ...(flags['banner-image-url'] === undefined ? {} : { bannerImageUrl: flags['banner-image-url'] }),
      ...(flags['pfp-url'] === undefined ? {} : { pfpUrl: flags['pfp-url'] }),
      ...(flags['website-url'] === undefined ? {} : { websiteUrl: flags['website-url'] }),
      ...(flags.bio === undefined ? {} : { bio: flags.bio }),
    }
    const update: ProfileUpdate = {
      ...(Object.keys(identity).length > 0 ? { identity } : {}),
      ...(Object.keys(content).length > 0 ? { content } : {}),
      ...(fromFile.status ? { status: fromFile.status } : {}),
    }
    const binding = {
      ...(flags.creator === undefined ? {} : { creator: flags.creator }),
      ...(flags['expected-token'] === undefined ? {} : { expectedToken: flags['expected-token'] }),
      ...(flags['clear-expected-token'] ? { expectedToken: null } : {}),
      ...(flags.symbol === undefined ? {} : { symbol: flags.symbol }),
      ...(flags.name === undefined ? {} : { name: flags.name }),
      ...(flags['clear-symbol'] ? { symbol: null } : {}),
    }
    if (Object.keys(update).length === 0 && Object.keys(binding).length === 0) this.error('give at least one field to change', { exit: 2 })
    const client = await this.adminClient(flags)
    let project = Object.keys(update).length > 0 ? await client.updateProfile(args.slug, update) : undefined
    if (project) this.log(`Updated the profile of ${project.slug}`)
    if (Object.keys(binding).length > 0) {
      const updated = await client.updateBinding(args.slug, binding)
      project = updated.project
      for (const warning of updated.deployerWarnings ?? []) this.warn(warning)
      const symbol = project.expectedSymbol ? `${project.expectedSymbol}${project.expectedName ? ` (${project.expectedName})` : ''}` : '(none)'
      this.log(
        `Updated the launch binding of ${project.slug}: deployer ${project.creatorAddress}, expected token ${project.expectedTokenAddress ?? '(none)'}, symbol ${symbol}`,
      )
    }
    return { project: project! }
  }
}
