#!/usr/bin/env node
'use strict'
// Written for every Node that can still start it, so that an old one gets a sentence, not a
// stack trace from the bundle. CommonJS, as the launcher it hands over to: no ES module loader to
// start for a command that loads one file.
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < 22 || (major === 22 && minor < 13)) {
  process.stderr.write(`chamberctl needs Node 22.13 or newer; this is ${process.versions.node}\n`)
  process.exit(1)
}
require('../dist/launch.cjs').launch()
