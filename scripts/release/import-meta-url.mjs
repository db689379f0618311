// Injected into the CommonJS bundle for its modules written as ES modules (jq.ts, jq-wasm): their
// import.meta.url is the bundle's own file URL.
import { pathToFileURL } from 'node:url'

export const import_meta_url = pathToFileURL(__filename).href
