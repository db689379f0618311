// The release's Scoop and WinGet manifests against the package managers' published JSON Schemas
// (draft-07), which the build machine cannot fetch: they are kept beside the clone, with their
// sources (../shared/schemas/README.md). Used by rehearse.sh.
// Usage: node scripts/release/check-manifests.mjs SCHEMAS_DIR RELEASE_DIR
import { readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import { parse } from 'yaml'

const [schemas, release] = process.argv.slice(2)
if (!schemas || !release) {
  console.error('usage: node scripts/release/check-manifests.mjs SCHEMAS_DIR RELEASE_DIR')
  process.exit(2)
}

// WinGet's schemas use a format of their own, "long", for an integer that may be large.
const ajv = new Ajv({ allErrors: true, strict: false })
addFormats(ajv)
ajv.addFormat('long', true)

const read = (file) => JSON.parse(readFileSync(file, 'utf8'))
const checks = [[path.join(schemas, 'scoop/schema.json'), path.join(release, 'chamberctl.json')]]
const WINGET = {
  version: 'manifest.version.1.10.0.json',
  installer: 'manifest.installer.1.10.0.json',
  defaultLocale: 'manifest.defaultLocale.1.10.0.json',
}
const winget = readdirSync(release).filter((name) => name.endsWith('.yaml'))
const types = new Set()
for (const name of winget) {
  const { ManifestType: type } = parse(readFileSync(path.join(release, name), 'utf8'))
  if (!WINGET[type]) throw new Error(`${name}: ManifestType ${type} is not one the release makes`)
  types.add(type)
  checks.push([path.join(schemas, 'winget-1.10.0', WINGET[type]), path.join(release, name)])
}
const missing = Object.keys(WINGET).filter((type) => !types.has(type))
if (missing.length > 0) throw new Error(`no WinGet ${missing.join(', ')} manifest in ${release}`)

let failed = false
for (const [schema, file] of checks) {
  const manifest = file.endsWith('.yaml') ? parse(readFileSync(file, 'utf8')) : read(file)
  const validate = ajv.compile(read(schema))
  if (validate(manifest)) {
    console.log(`${path.basename(file)}: valid against ${path.basename(schema)}`)
  } else {
    failed = true
    for (const error of validate.errors) {
      console.error(`${path.basename(file)}: ${error.instancePath || '/'} ${error.message}`)
    }
  }
}
process.exit(failed ? 1 : 0)
