import { Args } from '@oclif/core'
import { Listr } from 'listr2'
import type { KeySummary, RotateKeyResult } from '../../src/admin-api/contract.ts'
import { OperatorCommand } from '../../src/admin-client/cli/operator-command.ts'

export default class KeysRotate extends OperatorCommand {
  static override description =
    'Replace a key’s secret: the same key (id, label, buyer, wallet, orders) gets a new API key, shown once; the old one stops working in the same write'
  static override examples = ['<%= config.bin %> keys rotate alice', '<%= config.bin %> keys rotate key_0123456789abcdef --json']
  static override args = { key: Args.string({ required: true, description: 'key id or label' }) }

  async run(): Promise<RotateKeyResult> {
    const { args, flags } = await this.parse(KeysRotate)
    const client = await this.adminClient(flags)
    const context: { key?: KeySummary; result?: RotateKeyResult } = {}
    // The steps are shown on a terminal; with --json or a pipe they run silently.
    const steps = new Listr(
      [
        {
          title: `Find key ${args.key}`,
          task: async (_ctx, task) => {
            const keys = await client.listKeys()
            context.key = keys.find((k) => k.keyId === args.key) ?? keys.find((k) => k.label === args.key)
            if (!context.key) throw new Error(`no key with id or label ${args.key}`)
            if (context.key.revokedAt !== null) throw new Error(`key ${context.key.label} is revoked: issue a new one instead`)
            task.title = `Found key ${context.key.label} (${context.key.keyId}, wallet ${context.key.serviceWalletAddress})`
          },
        },
        {
          title: 'Issue the new secret and revoke the old one (one write)',
          task: async () => {
            context.result = await client.rotateKey(context.key!.keyId)
          },
        },
      ],
      { renderer: this.jsonEnabled() || !process.stdout.isTTY ? 'silent' : 'simple', exitOnError: true },
    )
    try {
      await steps.run()
    } catch (error) {
      this.error((error as Error).message, { exit: 1 })
    }
    const result = context.result!
    this.log(`Key ${result.key.label} (${result.key.keyId}) rotated; the old API key no longer works.`)
    this.log(`New API key:  ${result.key.apiKey}`)
    this.log('The key is shown once: send it to its owner now; it cannot be recovered.')
    return result
  }
}
