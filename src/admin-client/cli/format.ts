import { terminalSafeLine } from '../../common/terminal-safe.ts'

/** Plain-text rendering for people (and pipes): fixed columns, no colours, no box drawing. */
export function formatTable<Row extends object>(rows: readonly Row[], columns: ReadonlyArray<keyof Row & string>): string {
  if (rows.length === 0) return '(none)'
  const cell = (value: unknown): string => {
    if (value === null || value === undefined) return '-'
    if (typeof value === 'number' && value > 1_000_000_000_000) return new Date(value).toISOString()
    if (typeof value === 'object') return terminalSafeLine(JSON.stringify(value))
    // Whitespace runs become one space (the row stays one line); every other control character is shown escaped.
    return terminalSafeLine(String(value).replace(/\s+/g, ' '))
  }
  const table = rows.map((row) => columns.map((column) => cell(row[column])))
  const widths = columns.map((column, i) => Math.min(60, Math.max(column.length, ...table.map((cells) => cells[i]?.length ?? 0))))
  const line = (cells: readonly string[]) =>
    cells
      .map((text, i) => {
        const width = widths[i] ?? 0
        return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width)
      })
      .join('  ')
      .trimEnd()
  return [line(columns), ...table.map(line)].join('\n')
}
