import { describe, expect, it } from 'vitest'
import { DUMP_WAIT_FACTOR, nextDumpDelayMs } from '../../../devnet/anvil/state-dumper.ts'

describe('the devnet state dump interval', () => {
  it('keeps the interval asked for while a dump takes less than a tenth of it', () => {
    expect(nextDumpDelayMs(2_000, 0)).toBe(2_000)
    expect(nextDumpDelayMs(2_000, 200)).toBe(2_000)
  })

  it('waits nine times what the last dump took once dumps grow (a long chain of 200 ms blocks): dumping stays under a tenth of the time', () => {
    expect(DUMP_WAIT_FACTOR).toBe(9)
    expect(nextDumpDelayMs(2_000, 1_000)).toBe(9_000)
    const took = 3_000
    const wait = nextDumpDelayMs(2_000, took)
    expect(took / (took + wait)).toBeCloseTo(0.1)
  })
})
