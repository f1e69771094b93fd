import { describe, expect, it } from 'vitest'
import { rewrite } from '../../scripts/codemod-time-convention.ts'

describe('the time-convention codemod (scripts/codemod-time-convention.ts)', () => {
  it('renames clock to now in code, local values named now to nowMs, and leaves comments, strings, keys and members', () => {
    const before = [
      '// the chain’s clock, not ours',
      'export function createX({ store, clock }: { store: Store; clock: Clock }) {',
      '  const now = clock()',
      '  let later: number = now',
      '  const offer = { ...now, now }',
      '  const step = (now: number) => now + 1',
      '  const late = (by: number, now: number) => now + by',
      "  const label = 'clock'",
      `  const text = \`\${clock()} on the clock\``,
      '  return { at: now, now, later: Date.now(), policy: { now: now + 1 }, read: deps.clock }',
      '}',
    ].join('\n')
    expect(rewrite(before)).toBe(
      [
        '// the chain’s clock, not ours',
        'export function createX({ store, now }: { store: Store; now: Clock }) {',
        '  const nowMs = now()',
        '  let later: number = nowMs',
        '  const offer = { ...nowMs, now: nowMs }',
        '  const step = (nowMs: number) => nowMs + 1',
        '  const late = (by: number, nowMs: number) => nowMs + by',
        "  const label = 'clock'",
        `  const text = \`\${now()} on the clock\``,
        '  return { at: nowMs, now: nowMs, later: Date.now(), policy: { now: nowMs + 1 }, read: deps.now }',
        '}',
      ].join('\n'),
    )
  })

  it('changes nothing in a file that no longer says clock in code (re-runnable)', () => {
    const after = 'const now = deps.now ?? Date.now\n// a clock\nexport const at = now()\n'
    expect(rewrite(after)).toBe(after)
  })
})
