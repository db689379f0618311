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

// One YAML document holding `value`, ending in a line break.
export function yamlText(value: unknown, terminal: boolean): string {
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
