// Writes the fixture one record at a time, as records arrive, so that memory does not grow with
// the number of members: each chamber and each member is formatted alone (YAML by the yaml
// package, JSON by JSON.stringify) and indented to its place in the document. The result is
// byte for byte what formatting the whole document at once would give, and what seed reads.
import type { Writable } from 'node:stream'
import { put } from '../../io/output.js'

export type FixtureWriter = {
  // A chamber, without its members: they follow with members(), as they come.
  chamber(entry: Record<string, unknown>): Promise<void>
  members(entries: readonly Record<string, unknown>[]): Promise<void>
  end(): Promise<void>
}

// Empty lines stay empty: in a YAML block scalar, spaces past its indentation would be text.
function indent(text: string, by: string): string {
  return by + text.replace(/\n(?=[^\n])/g, `\n${by}`)
}

// Text that the yaml package prints as it is (a plain scalar) and reads back as the same string:
// letters, digits and a few marks, no `: ` or ` #`, no space at either end; and either a space
// inside (no number, boolean or null has one) or a letter first and no word YAML 1.2 reads as
// null or a boolean. Most names, e-mail addresses, phone numbers and types are; any other
// string is left to the package. Tested against the package (test/commands/export/writer.test.ts).
const SPACED = /^[\p{L}\p{N}+][\p{L}\p{N} .@_+'-]* [\p{L}\p{N} .@_+'-]*[\p{L}\p{N}.]$/u
const WORD = /^\p{L}[\p{L}\p{N}.@_+'-]*$/u
const KEYWORD = /^(?:null|true|false)$/i

export function isPlainYaml(text: string): boolean {
  return SPACED.test(text) || (WORD.test(text) && !KEYWORD.test(text))
}

// One entry of a list as the yaml package prints it when every value is a string it prints
// plain (a member, nearly always), each line after `by`: without the package, which took most of
// a large export's time. Undefined for any other entry.
export function plainYamlItem(entry: Record<string, unknown>, by = ''): string | undefined {
  let text = ''
  for (const key in entry) {
    const value = entry[key]
    if (typeof value !== 'string' || !isPlainYaml(value) || !isPlainYaml(key)) return undefined
    text += `${by}${text === '' ? '- ' : '  '}${key}: ${value}\n`
  }
  return text === '' ? undefined : text
}

export async function yamlWriter(out: Writable): Promise<FixtureWriter> {
  const { stringifyYaml } = await import('../../io/yaml.js')
  // No folding of long lines: a name stays on one line, as a person would edit it.
  const item = (entry: Record<string, unknown>, by: string) =>
    plainYamlItem(entry, by) ?? indent(stringifyYaml([entry], { lineWidth: 0 }), by)
  let started = false
  let members = false
  return {
    async chamber(entry) {
      await put(out, (started ? '' : 'chambers:\n') + item(entry, '  '))
      started = true
      members = false
    },
    async members(entries) {
      let text = members ? '' : '    members:\n'
      for (const entry of entries) text += item(entry, '      ')
      await put(out, text)
      members = true
    },
    async end() {
      if (!started) await put(out, 'chambers: []\n')
    },
  }
}

// Two spaces of indentation, as JSON.stringify(fixture, null, 2) prints: a fixture is a file to
// read and diff, in a pipe too.
export function jsonWriter(out: Writable): FixtureWriter {
  const item = (entry: Record<string, unknown>, by: string) =>
    indent(JSON.stringify(entry, null, 2), by)
  let started = false
  let members = false
  // What closes the chamber written last.
  const close = () => `${members ? '\n      ]' : ''}\n    }`
  return {
    async chamber(entry) {
      const open = item(entry, '    ').replace(/\n {4}\}$/, '')
      await put(out, (started ? `${close()},\n` : '{\n  "chambers": [\n') + open)
      started = true
      members = false
    },
    async members(entries) {
      let text = ''
      for (const entry of entries) {
        text += `${members ? ',' : ',\n      "members": ['}\n${item(entry, '        ')}`
        members = true
      }
      await put(out, text)
    },
    async end() {
      await put(out, started ? `${close()}\n  ]\n}\n` : '{\n  "chambers": []\n}\n')
    },
  }
}
