#!/usr/bin/env node
import module from 'node:module'

// Node 22.1+ caches compiled code between runs; older versions simply skip this.
module.enableCompileCache?.()
const { run } = await import('../dist/main.js')
await run()
