// Writes a sandbox database from a dataset in a JSON file ({chambers, members, events}, records
// as the sandbox stores them), with the sandbox's own store: bench/run.mjs's memory rows serve
// their lists from it. Bundled as bench/fill.mjs is. Usage: node dataset.mjs FILE DATASET.json
import { readFileSync } from 'node:fs'
import { Store } from '../src/sandbox/store.ts'

const [file, dataset] = process.argv.slice(2)
Store.open({ path: file, initial: () => JSON.parse(readFileSync(dataset, 'utf8')) }).close()
