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

export async function yamlWriter(out: Writable): Promise<FixtureWriter> {
  const { stringifyYaml } = await import('../../io/yaml.js')
  // No folding of long lines: a name stays on one line, as a person would edit it.
  const item = (entry: Record<string, unknown>) => stringifyYaml([entry], { lineWidth: 0 })
  let started = false
  let members = false
  return {
    async chamber(entry) {
      await put(out, (started ? '' : 'chambers:\n') + indent(item(entry), '  '))
      started = true
      members = false
    },
    async members(entries) {
      let text = members ? '' : '    members:\n'
      for (const entry of entries) text += indent(item(entry), '      ')
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
