// The spec's OpenAPI document (spec/openapi.yaml in this repository, or $CHAMBERCTL_OPENAPI), as
// the property tests read it: the rules servers we did not write are held to.
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { parse as parseYaml } from 'yaml'
import { ROOT } from './run-cli.js'

export type Schema = Record<string, unknown>

export type OpenApiDocument = {
  servers: { url: string }[]
  paths: Record<string, Record<string, unknown>>
  components: { schemas: Record<string, Schema>; responses: Record<string, Schema> } & Schema
}

const SPEC = process.env.CHAMBERCTL_OPENAPI ?? path.resolve(ROOT, 'spec', 'openapi.yaml')
if (!existsSync(SPEC)) {
  throw new Error(`the spec's OpenAPI document is not at ${SPEC}: set CHAMBERCTL_OPENAPI`)
}

export const openApi = parseYaml(readFileSync(SPEC, 'utf8')) as OpenApiDocument
