import { Box, Text } from 'ink'
import type { ReactElement } from 'react'
import type { ReplayView } from './replay-view.ts'

/** The replay screen: renders a ReplayView and nothing else (replay-view.ts computes every line). */
export function ReplayScreen({ view }: { view: ReplayView }): ReactElement {
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate-end">
        {view.title}
      </Text>
      <Text>
        {view.position} · <Text color={view.status.startsWith('today’s code agrees') ? 'green' : 'yellow'}>{view.status}</Text>
      </Text>
      <Box flexDirection="column" borderStyle="round" paddingX={1}>
        <Text wrap="truncate-end">{view.block}</Text>
        <Text wrap="truncate-end">{view.pool}</Text>
        <Text wrap="truncate-end">{view.fee}</Text>
        <Text wrap="truncate-end">{view.cap}</Text>
      </Box>
      <Text dimColor>{view.rowsInfo}</Text>
      <Text bold>
        {'rank'.padStart(4)} {'order'.padEnd(24)} {'verdict'.padEnd(17)} {'spend'.padStart(8)} outcome
      </Text>
      {view.rows.map((r) => (
        <Text key={r.keyId} wrap="truncate-end">
          {r.rank.padStart(4)} {r.keyId.padEnd(24)} {r.verdict.padEnd(17)} {r.spend.padStart(8)} {r.outcome} {r.tx}{' '}
          {r.flag ? <Text color="red">{r.flag}</Text> : null}
        </Text>
      ))}
      {view.differences.map((d) => (
        <Text key={d} color="red" wrap="truncate-end">
          ≠ {d}
        </Text>
      ))}
      <Text>{view.summary}</Text>
      <Text dimColor>{view.help}</Text>
    </Box>
  )
}
