#!/usr/bin/env node
// Written for every Node that can still start it, so that an old one gets a sentence, not a
// stack trace from the bundle.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`chamberctl needs Node 22.13 or newer; this is ${process.versions.node}\n`)
  process.exit(1)
}
const { run } = await import('../dist/main.js')
await run()
