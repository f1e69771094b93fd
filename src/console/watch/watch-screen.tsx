import { Box, Text } from 'ink'
import type { ReactElement } from 'react'
import type { LaunchPanel, WatchView } from './watch-view.ts'

const TONE = { ok: 'green', warn: 'yellow', bad: 'red' } as const

/** The launch dashboard: renders a WatchView and nothing else (every figure is computed in watch-view.ts). */
export function WatchScreen({ view }: { view: WatchView }): ReactElement {
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>{view.title}</Text> · <Text color={TONE[view.connection.tone]}>{view.connection.text}</Text>
      </Text>
      {view.empty ? <Text dimColor>{view.empty}</Text> : null}
      {view.launched.map((panel, i) => (i === view.selected ? <FullPanel key={panel.slug} panel={panel} /> : <PanelLine key={panel.slug} panel={panel} />))}
      {view.candidates.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Launch candidates held back</Text>
          {view.candidates.map((c) => (
            <Text key={`${c.slug}${c.token}`} wrap="truncate-end">
              {'  '}
              {c.slug} · <Text color="yellow">{c.status}</Text> · token {c.token} · {c.reason}
            </Text>
          ))}
        </Box>
      ) : null}
      {view.waiting.length > 0 ? (
        <Box flexDirection="column" marginTop={1}>
          <Text bold>Waiting to launch</Text>
          {view.waiting.map((w) => (
            <Text key={w.slug} wrap="truncate-end">
              {'  '}
              {w.slug} · {w.chain} · {w.launchpad} · {w.method} · {w.orders} orders · {w.spend} · limits {w.limits}
            </Text>
          ))}
        </Box>
      ) : null}
      <Text dimColor>{view.help}</Text>
    </Box>
  )
}

function PanelLine({ panel }: { panel: LaunchPanel }): ReactElement {
  return (
    <Text wrap="truncate-end">
      {panel.heading} · block {panel.block} · cap {panel.effectiveCap} · filled {panel.orders[3]?.count ?? 0}
    </Text>
  )
}

function FullPanel({ panel }: { panel: LaunchPanel }): ReactElement {
  return (
    <Box flexDirection="column" marginTop={1} borderStyle="round" paddingX={1}>
      <Text bold wrap="truncate-end">
        {panel.heading}
      </Text>
      <Text wrap="truncate-end">
        block {panel.block} · spot FDV <Text bold>{panel.spotFdv}</Text> · fee now {panel.feeNow} · next block {panel.feeNext} · effective cap{' '}
        <Text bold color="cyan">
          {panel.effectiveCap}
        </Text>
        {panel.swapsAllowed ? '' : ' · swaps not allowed yet'}
      </Text>
      {panel.sparkline ? (
        <Text>
          cap since launch <Text color="cyan">{panel.sparkline}</Text>
        </Text>
      ) : null}
      <Text wrap="truncate-end">
        orders{' '}
        {panel.orders.map((o, i) => (
          <Text key={o.label}>
            {i > 0 ? ' · ' : ''}
            {o.label} <Text bold>{o.count}</Text>
            {o.count > 0 ? ` (${o.spend})` : ''}
          </Text>
        ))}
      </Text>
      <Text>latency {panel.latency}</Text>
      {panel.swaps.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positional lines of text, replaced as a whole each frame
        <Text key={i} dimColor wrap="truncate-end">
          {line}
        </Text>
      ))}
      {panel.batches.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positional lines of text, replaced as a whole each frame
        <Text key={`batch${i}`} color={line.startsWith(' ') ? 'yellow' : 'magenta'} wrap="truncate-end">
          {line}
        </Text>
      ))}
      {panel.actions.map((line, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: positional lines of text, replaced as a whole each frame
        <Text key={i} wrap="truncate-end">
          {line}
        </Text>
      ))}
    </Box>
  )
}
