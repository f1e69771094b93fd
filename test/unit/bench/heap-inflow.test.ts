import { describe, expect, it } from 'vitest'
import { heapInflow, type SamplingHeapProfileNode } from '../../bench/diagnose/heap-inflow.ts'

const node = (functionName: string, url: string, selfSize: number, children: SamplingHeapProfileNode[] = []): SamplingHeapProfileNode => ({
  callFrame: { functionName, url, lineNumber: 9, columnNumber: 4 },
  selfSize,
  children,
})

describe('heapInflow', () => {
  it("sums bytes by allocating frame and by the innermost frame of the project's code on the stack", () => {
    const profile = {
      head: node('(root)', '', 0, [
        node('patch', 'file:///srv/prebuy/daemon/executor/load-orders.ts', 100, [
          node('slice', '', 1_000),
          node('request', 'file:///srv/prebuy/node_modules/viem/_esm/http.js', 0, [node('slice', '', 10)]),
        ]),
        node('send', 'file:///srv/prebuy/src/chain/rpc-post.ts', 0, [node('ClientRequest', 'node:_http_client', 300)]),
        node('socketOnData', 'node:_http_client', 50),
      ]),
    }
    const inflow = heapInflow(profile, 'file:///srv/prebuy/')
    expect(inflow.totalBytes).toBe(1_460)
    expect(inflow.bySite).toEqual([
      ['slice :10:5', 1_010],
      ['ClientRequest node:_http_client:10:5', 300],
      ['patch daemon/executor/load-orders.ts:10:5', 100],
      ['socketOnData node:_http_client:10:5', 50],
    ])
    // A library frame under the project's frame still counts for the project's frame; none on the stack is said so.
    expect(inflow.byOwnFrame).toEqual([
      ['patch daemon/executor/load-orders.ts:10:5', 1_110],
      ['send src/chain/rpc-post.ts:10:5', 300],
      ['(no own frame)', 50],
    ])
  })

  it("counts as our own only what lies under the root's daemon/ and src/, wherever the root is", () => {
    // A checkout under a folder called src: its node_modules and test/ are not our code, its daemon/ is.
    const root = 'file:///home/dev/src/prebuy/'
    const profile = {
      head: node('(root)', '', 0, [
        node('get', `${root}node_modules/viem/_esm/get.js`, 40),
        node('bench', `${root}test/bench/run.ts`, 30),
        node('tick', `${root}daemon/executor/tick.ts`, 0, [node('push', '', 20)]),
      ]),
    }
    expect(heapInflow(profile, root).byOwnFrame).toEqual([
      ['(no own frame)', 70],
      ['tick daemon/executor/tick.ts:10:5', 20],
    ])
    expect(heapInflow(profile, root).bySite.map(([frame]) => frame)).toEqual([
      'get node_modules/viem/_esm/get.js:10:5',
      'bench test/bench/run.ts:10:5',
      'push :10:5',
    ])
  })
})
