import { z } from 'zod'
import { ADMIN_ROUTES, type AdminRouteName } from './admin-routes.ts'
import { connection, integerString } from './result-schemas.ts'

/**
 * What each CLI command prints with `--json`, as zod schemas keyed by the command's id (`daemon:status`): the
 * documented result of every command, checked by the tests against what the commands really print (test/daemon/
 * helpers.ts runCli validates every `--json` output it sees; test/unit/cli/command-results.test.ts checks every
 * command has one). A command that prints its admin route's answer takes the route's `response` (admin-routes.ts);
 * the ones below print something of their own. Top-level shapes are strict (a field added or dropped is noticed).
 */
const OWN_RESULTS = {
  backup: z.strictObject({
    file: z.string(),
    bytes: z.number().int(),
    entries: z.number().int(),
    files: z.array(z.string()),
    storeVersion: z.number().int(),
    createdAt: z.string(),
    source: z.enum(['daemon', 'offline']),
  }),
  restore: z.strictObject({
    dataDir: z.string(),
    entries: z.number().int(),
    files: z.array(z.string()),
    storeVersion: z.number().int(),
    backupCreatedAt: z.string(),
    movedAside: z.array(z.string()),
  }),
  'daemon:stop': z.strictObject({ pid: z.number().int(), stopped: z.literal(true) }),
  'executions:replay': z.strictObject({
    slug: z.string(),
    ticks: z.number().int(),
    checkable: z.number().int(),
    differing: z.array(z.strictObject({ tick: z.number().int(), blockNumber: integerString, reason: z.string(), differences: z.array(z.string()) })),
    batches: z.strictObject({
      count: z.number().int(),
      checkable: z.number().int(),
      allocationsChecked: z.number().int(),
      differing: z.array(z.strictObject({ batchId: z.string(), sequence: z.number().int(), tickBlock: integerString, differences: z.array(z.string()) })),
    }),
  }),
  'launches:watch': z.strictObject({
    title: z.string(),
    connection,
    launched: z.array(
      z.strictObject({
        slug: z.string(),
        heading: z.string(),
        block: integerString,
        spotFdv: z.string(),
        feeNow: z.string(),
        feeNext: z.string(),
        effectiveCap: z.string(),
        swapsAllowed: z.boolean(),
        sparkline: z.string(),
        orders: z.array(z.strictObject({ label: z.string(), count: z.number().int(), spend: z.string() })),
        latency: z.string(),
        swaps: z.array(z.string()),
        batches: z.array(z.string()),
        actions: z.array(z.string()),
      }),
    ),
    selected: z.number().int(),
    candidates: z.array(z.strictObject({ slug: z.string(), status: z.string(), token: z.string(), reason: z.string() })),
    waiting: z.array(
      z.strictObject({
        slug: z.string(),
        chain: z.string(),
        launchpad: z.string(),
        method: z.string(),
        orders: z.number().int(),
        spend: z.string(),
        limits: z.string(),
      }),
    ),
    empty: z.string().nullable(),
    help: z.string(),
  }),
  review: z.object({
    title: z.string(),
    connection,
    counts: z.string(),
    rows: z.array(
      z.strictObject({ id: z.string(), kind: z.string(), name: z.string(), contact: z.string(), ip: z.string(), received: z.string(), selected: z.boolean() }),
    ),
    keyBox: z.null(),
    help: z.string(),
  }),
} satisfies Record<string, z.ZodType>

type RouteCommand = (typeof ADMIN_ROUTES)[AdminRouteName]['commands'][number]
export type CommandId = keyof typeof OWN_RESULTS | RouteCommand

const ROUTE_RESULTS = Object.fromEntries(
  Object.values(ADMIN_ROUTES).flatMap((route) => route.commands.map((id): [string, z.ZodType] => [id, route.response])),
) as Record<RouteCommand, z.ZodType>

export const COMMAND_RESULTS: Record<CommandId, z.ZodType> = { ...ROUTE_RESULTS, ...OWN_RESULTS }

/** Commands that print no JSON result: `daemon start` runs the daemon in the foreground. */
export const COMMANDS_WITHOUT_RESULT = ['daemon:start'] as const

/** The schema of the command `args` (a CLI argument list) runs: the longest leading run of words naming a command. */
export function resultSchemaOf(args: readonly string[]): { id: CommandId; schema: z.ZodType } | undefined {
  const words = args.filter((arg) => !arg.startsWith('-'))
  for (let n = Math.min(3, words.length); n > 0; n--) {
    const id = words.slice(0, n).join(':')
    if (id in COMMAND_RESULTS) return { id: id as CommandId, schema: COMMAND_RESULTS[id as CommandId] }
  }
  return undefined
}
