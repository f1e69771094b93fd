#!/usr/bin/env node
// The CLI and the daemon run the TypeScript sources directly through tsx: no build step between
// `npm install` and `npm start`.
import { register } from 'tsx/esm/api'
import { execute } from '@oclif/core'

register()
await execute({ dir: import.meta.url })
