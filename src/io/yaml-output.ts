// The yaml format's text (-o yaml), by the yaml package that reads and writes the fixtures. Only
// output.ts loads this module, and only for -o yaml: the package stays out of every other
// command's start-up.
//
// - Every string YAML would read back as something else is quoted, for YAML 1.2 readers and
//   YAML 1.1 ones alike (`"yes"`, `"010"`, `"1e3"`, `"null"`, `"*x"`, `"a: b"`), so that the
//   output parses back to the records (a property test holds it to that).
// - No folding (lineWidth 0): a long value stays on one line, as in JSON.
// - A number the server wrote with more digits than a double holds (kept as raw JSON by the
//   client) is written with its own digits, the same number JSON output prints.
// - On a terminal, a string with a character terminal-text.ts escapes is double-quoted and the
//   character written as a YAML escape (`\u202e`): still the same YAML, never the raw character.
import { isPlainObject } from '../util.js'
import { escapeYamlForTerminal, needsTerminalEscape } from './terminal-text.js'
import { YamlDocument, visitYaml } from './yaml.js'
import type {
  CreateNodeOptions,
  DocumentOptions,
  ScalarTag,
  SchemaOptions,
  ToStringOptions,
} from './yaml.js'

// JSON.isRawJSON (Node ≥ 21), not yet in TypeScript's lib.
const isRawJson = (value: unknown): value is { rawJSON: string } =>
  (JSON as { isRawJSON?: (value: unknown) => boolean }).isRawJSON?.(value) === true

const rawNumber: ScalarTag = {
  // `default`: written untagged, as the number it is.
  default: true,
  tag: 'tag:chamberctl,2026:raw-number',
  identify: isRawJson,
  resolve: (text) => text,
  stringify: (item) => (item.value as { rawJSON: string }).rawJSON,
}

const DOCUMENT: DocumentOptions & SchemaOptions & CreateNodeOptions = {
  compat: 'yaml-1.1',
  customTags: [rawNumber],
  // Records from JSON share no objects; a picked copy must not turn into an anchor and alias.
  aliasDuplicateObjects: false,
}
const TEXT: ToStringOptions = { lineWidth: 0 }

// Most records are flat text, names, e-mails and dates, which cost the package a tree of nodes
// each (a tenth of a millisecond a member, and garbage that grows the young generation). Those
// are written here, byte for byte as the package writes them (a property test holds the two to
// that); anything else goes to the package: text with a line break, a quote or anything else it
// may quote, arrays, empty objects, numbers kept as raw JSON.
const PLAIN = /^[A-Za-z](?:[\w .@+-]*[\w.@+-])?$/
// A phone number as people write one: a number only without the spaces.
const PHONE = /^\+\d+(?: \d+)+$/
const KEY = /^[A-Za-z_]\w*$/
// What YAML 1.1 reads as a boolean or null, in any case, for safety.
const WORDS = /^(?:y|n|yes|no|on|off|true|false|null)$/i
// Quoted: YAML 1.1 reads a timestamp.
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/

function scalar(value: unknown): string | undefined {
  if (value === null) return 'null'
  if (typeof value === 'boolean') return String(value)
  if (typeof value === 'number') {
    return Number.isFinite(value) && !Object.is(value, -0) ? JSON.stringify(value) : undefined
  }
  if (typeof value !== 'string') return undefined
  if ((PLAIN.test(value) && !WORDS.test(value)) || PHONE.test(value)) return value
  return DATE_TIME.test(value) ? `"${value}"` : undefined
}

// `key: value` lines at `indent`, nested objects below their key; undefined for the package.
function mapping(record: unknown, indent: string): string | undefined {
  if (!isPlainObject(record) || isRawJson(record)) return undefined
  const keys = Object.keys(record)
  if (keys.length === 0) return undefined
  let text = ''
  for (const key of keys) {
    if (!KEY.test(key) || WORDS.test(key)) return undefined
    const value = record[key]
    const shown = isPlainObject(value) ? undefined : scalar(value)
    if (shown !== undefined) {
      text += `${indent}${key}: ${shown}\n`
      continue
    }
    const nested = mapping(value, `${indent}  `)
    if (nested === undefined) return undefined
    text += `${indent}${key}:\n${nested}`
  }
  return text
}

// One YAML document holding `value`, ending in a line break.
export function yamlText(value: unknown, terminal: boolean): string {
  return fastText(value) ?? packageText(value, terminal)
}

// A record, or a sequence of one, when every value in it is one written here.
export function fastText(value: unknown): string | undefined {
  return Array.isArray(value) && value.length === 1 ? item(value[0]) : mapping(value, '')
}

// A sequence of one record: `- ` before its first line, two spaces before the others.
function item(record: unknown): string | undefined {
  const text = mapping(record, '  ')
  return text && `- ${text.slice(2)}`
}

// The package's text of `value`, escaped for a terminal on one.
export function packageText(value: unknown, terminal: boolean): string {
  const doc = new YamlDocument(value, DOCUMENT)
  if (terminal) {
    visitYaml(doc, {
      Scalar(_key, node) {
        if (typeof node.value === 'string' && needsTerminalEscape(node.value)) {
          node.type = 'QUOTE_DOUBLE'
        }
      },
    })
  }
  const text = doc.toString(TEXT)
  return terminal ? escapeYamlForTerminal(text) : text
}

// Lists are written record by record, never held whole. In one document (a list's page, or
// --limit), a block sequence whose items are each record's own sequence of one: together byte
// for byte the sequence of them all. As a stream (--all), each record a document, `---` between
// them, as kubectl writes one.
export function yamlItem(record: unknown, index: number, documents: boolean, terminal: boolean) {
  if (!documents) return yamlText([record], terminal)
  return (index === 0 ? '' : '---\n') + yamlText(record, terminal)
}

// What ends a list: an empty one in one document is `[]`; a stream of no documents is empty.
export function yamlEnd(count: number, documents: boolean): string {
  return count === 0 && !documents ? '[]\n' : ''
}
