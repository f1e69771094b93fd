import { Box, Text } from 'ink'
import type { ReactElement } from 'react'
import type { ReviewView } from './review-view.ts'

const TONE = { ok: 'green', warn: 'yellow', bad: 'red' } as const

/** The review queue: renders a ReviewView and nothing else (review-view.ts computes every line). */
export function ReviewScreen({ view }: { view: ReviewView }): ReactElement {
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{view.title}</Text> · <Text color={TONE[view.connection.tone]}>{view.connection.text}</Text> · {view.counts}
      </Text>
      {view.filter !== null ? <Text color="cyan">/ {view.filter}</Text> : null}
      {view.keyBox ? (
        <Box flexDirection="column" borderStyle="double" borderColor="yellow" paddingX={1}>
          <Text bold>{view.keyBox.what}</Text>
          <Text bold color="green">
            {view.keyBox.apiKey}
          </Text>
          <Text>
            label {view.keyBox.label} · wallet {view.keyBox.wallet}
          </Text>
          <Text color="yellow">{view.keyBox.warning}</Text>
        </Box>
      ) : (
        <Box flexDirection="column">
          {view.empty ? <Text dimColor>{view.empty}</Text> : null}
          {view.rows.map((row) => (
            <Text key={row.id} inverse={row.selected} wrap="truncate-end">
              {row.selected ? '›' : ' '} {row.received} {row.kind.padEnd(12)} {row.name} · {row.contact} · {row.ip}
            </Text>
          ))}
          {view.position ? <Text dimColor>{view.position}</Text> : null}
        </Box>
      )}
      {view.detail ? (
        <Box flexDirection="column" borderStyle="round" paddingX={1}>
          <Text bold>{view.detail.heading}</Text>
          {view.detail.fields.map(([label, value]) => (
            <Text key={label} wrap="wrap">
              <Text dimColor>{label.padEnd(16)}</Text> {value}
            </Text>
          ))}
          {view.detail.requester.map((line) => (
            <Text key={line} color={line.endsWith('(blocked)') ? 'red' : undefined}>
              {line}
            </Text>
          ))}
          <Text dimColor>{view.detail.earlier.length === 0 ? 'no earlier submissions from this contact or IP' : 'earlier from this contact or IP:'}</Text>
          {view.detail.earlier.map((line) => (
            <Text key={line} wrap="truncate-end">
              {'  '}
              {line}
            </Text>
          ))}
        </Box>
      ) : null}
      {view.form ? (
        <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1}>
          <Text bold>{view.form.title}</Text>
          {view.form.fields.map((f) => (
            <Text key={f.label}>
              {f.focused ? '›' : ' '} {f.label.padEnd(28)} <Text inverse={f.focused}>{f.choice ? `‹ ${f.value} ›` : f.value || ' '}</Text>
              {f.error ? <Text color="red"> {f.error}</Text> : null}
            </Text>
          ))}
          {view.form.busy ? <Text color="yellow">approving…</Text> : null}
          {view.form.error ? <Text color="red">{view.form.error}</Text> : null}
        </Box>
      ) : null}
      {view.reject ? (
        <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
          <Text bold>{view.reject.title}</Text>
          <Text inverse>{view.reject.note || ' '}</Text>
          {view.reject.busy ? <Text color="yellow">rejecting…</Text> : null}
          {view.reject.error ? <Text color="red">{view.reject.error}</Text> : null}
        </Box>
      ) : null}
      {view.block ? (
        <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
          <Text bold>{view.block.title}</Text>
          {view.block.entries.map((e) => (
            <Text key={e}>
              {'  '}
              {e}
            </Text>
          ))}
          {view.block.busy ? <Text color="yellow">blocking…</Text> : null}
          {view.block.error ? <Text color="red">{view.block.error}</Text> : null}
        </Box>
      ) : null}
      <Box flexDirection="column">
        <Text dimColor={view.changes.lines.length === 0} bold={view.changes.lines.length > 0}>
          {view.changes.title}
        </Text>
        {view.changes.lines.map((line) => (
          <Text key={line} wrap="wrap">
            {'  '}
            {line}
          </Text>
        ))}
      </Box>
      {view.rejectChange ? (
        <Box flexDirection="column" borderStyle="round" borderColor="red" paddingX={1}>
          <Text bold>{view.rejectChange.title}</Text>
          <Text inverse>{view.rejectChange.reason || ' '}</Text>
          {view.rejectChange.busy ? <Text color="yellow">rejecting…</Text> : null}
          {view.rejectChange.error ? <Text color="red">{view.rejectChange.error}</Text> : null}
        </Box>
      ) : null}
      {view.notice ? <Text color="cyan">{view.notice}</Text> : null}
      <Text dimColor>{view.help}</Text>
    </Box>
  )
}
