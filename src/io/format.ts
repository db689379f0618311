// The -o/--output/--json rules (contract §1): written once here so every command agrees.
import { UsageError } from '../errors.js'

export const OUTPUT_FORMATS = ['table', 'tsv', 'json', 'ndjson', 'csv', 'yaml'] as const
export type OutputFormat = (typeof OUTPUT_FORMATS)[number]

const VALID = OUTPUT_FORMATS.join(', ')

function isOutputFormat(value: string): value is OutputFormat {
  return (OUTPUT_FORMATS as readonly string[]).includes(value)
}

export function chooseFormat(
  flags: { output?: string; json?: boolean; jq?: boolean },
  stdoutIsTTY: boolean,
): OutputFormat {
  const given = flags.output?.trim().toLowerCase()
  if (given !== undefined && !isOutputFormat(given)) {
    throw new UsageError(`unknown output format "${flags.output}": use one of ${VALID}`)
  }
  if (flags.jq && given !== undefined && given !== 'json' && given !== 'ndjson') {
    throw new UsageError(`--jq filters JSON: use it with --json or -o ndjson, not -o ${given}`)
  }
  if (flags.json === true) {
    if (given !== undefined && given !== 'json') {
      throw new UsageError(`--json conflicts with -o ${given}: give one output format (${VALID})`)
    }
    return 'json'
  }
  if (given !== undefined) return given
  if (flags.jq) return 'json'
  // A pipe gets rows a script can cut and grep; a person gets a table.
  return stdoutIsTTY ? 'table' : 'tsv'
}

export function parseFields(value: string): string[] {
  const fields = [
    ...new Set(
      value
        .split(',')
        .map((field) =>
          field
            .split('.')
            .map((segment) => segment.trim())
            .join('.'),
        )
        .filter((field) => field !== ''),
    ),
  ]
  if (fields.length === 0) {
    throw new UsageError('--fields needs at least one field name, e.g. --fields id,name')
  }
  const bad = fields.find((field) => field.split('.').includes(''))
  if (bad !== undefined) {
    throw new UsageError(`--fields: "${bad}" is not a field name or dotted path like address.city`)
  }
  return fields
}
