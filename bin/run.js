#!/usr/bin/env node
// The CLI and the daemon run the TypeScript sources directly through tsx: no build step between
// `npm install` and `npm start`.
import { register } from 'tsx/esm/api'
import { execute } from '@oclif/core'

// A terminal on both ends is interactive, whatever CI says. Ink (through is-in-ci, read once when Ink loads) holds
// back every frame but the last while CI or CONTINUOUS_INTEGRATION is set, so an operator's screen (`review`,
// `launches watch`, `executions replay`) would stay blank until it quits: our own CI hit this, its CI=true reaching
// the test terminal. Pipes and --json are unaffected (they never draw frames).
if (process.stdin.isTTY && process.stdout.isTTY) {
  delete process.env.CI
  delete process.env.CONTINUOUS_INTEGRATION
}

register()
await execute({ dir: import.meta.url })
