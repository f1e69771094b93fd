/**
 * The devnet's periodic state dumps during a timing bench: off by default (`'on_stop'`), on with BENCH_DEVNET_DUMPS=1.
 * Each `anvil_dumpState` freezes anvil: no request answered for 35-90 ms every 2 s on a fresh devnet, ~110 ms once the
 * latency bench's chain held its launches (measured 2026-11-27 with a request every 10 ms; docs/devnet.md, "State
 * persistence"). Base does not pause, and a bench of the daemon's latency would otherwise time the devnet's backups:
 * a launch log arriving in such a pause waits for it (docs/execution.md §5, "The devnet's state dumps").
 */
export const BENCH_DEVNET_STATE_DUMPS: 'on_stop' | undefined = process.env.BENCH_DEVNET_DUMPS === '1' ? undefined : 'on_stop'

/** What the report says of them. */
export const benchDevnetStateDumps = (): string =>
  BENCH_DEVNET_STATE_DUMPS === 'on_stop'
    ? 'off (on_stop): the devnet chain never pauses to dump its state'
    : 'every 2 s (BENCH_DEVNET_DUMPS=1), each pausing the chain'
