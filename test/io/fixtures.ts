import type { Column } from '../../src/types/columns.js'
import { chambers as chamberResource, columnsOf, members } from '../../src/api/resources/index.js'
import type { OutputOptions } from '../../src/io/output.js'

export const CHAMBER_COLUMNS = ['id', 'name', 'type', 'status', 'address.city']

// Columns as a command hands them to the writers: what the descriptors say of chambers' and
// members' fields, free text for any other.
export function columns(names: readonly string[]): Column[] {
  return columnsOf(
    { name: 'records', fields: { ...members.fields, ...chamberResource.fields }, columns: [] },
    names,
  )
}

// The options of a test: columns by name (--fields, when given, as a command picks them).
export function outputOptions(
  overrides: Partial<Omit<OutputOptions, 'columns'>> &
    Pick<OutputOptions, 'format'> & { columns?: readonly string[] },
): OutputOptions {
  const names = overrides.fields ?? overrides.columns ?? CHAMBER_COLUMNS
  return { color: false, ...overrides, columns: columns(names) }
}

// Records as the API returns them, including a field no schema knows about.

export function chambers(): Record<string, unknown>[] {
  return [
    {
      id: 'c1',
      name: 'Berlin Chamber of Commerce',
      type: 'hq',
      hq_id: null,
      status: 'active',
      address: { street: 'Fasanenstr. 85', city: 'Berlin', postal_code: '10623', country: 'DE' },
      created_at: '2024-01-02T03:04:05Z',
      rating: 4.5,
    },
    {
      id: 'c2',
      name: 'Potsdam Chamber',
      type: 'subsidiary',
      hq_id: 'c1',
      status: 'pending',
      address: { city: 'Potsdam' },
      created_at: '2024-02-03T04:05:06Z',
    },
  ]
}

// Built from ESC at run time: eslint forbids control characters in regular expression sources.
const ESC = String.fromCharCode(27)
export const ANSI = new RegExp(`${ESC}\\[`)
export const ANSI_CODES = new RegExp(`${ESC}\\[\\d+m`, 'g')

export async function* fromArray<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setImmediate(resolve))
    yield item
  }
}
