// Ids travel as one URL path segment. encodeURIComponent leaves `.` and `..` as they are, and
// URL parsing folds those (and their %2e forms) into the path, so `chambers get ..` would ask for
// the API root: such ids are refused, never sent.
import { UsageError } from '../errors.js'

// C0 and C1 control characters and DEL: invisible in a terminal, mangled by proxies and logs.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

export function idProblem(id: string): string | undefined {
  if (id === '') return 'is empty'
  if (id === '.' || id === '..') return 'cannot be . or ..'
  if (CONTROL.test(id)) return 'contains a control character'
  if (id.trim() === '') return 'is only spaces'
  return undefined
}

// Returns the id unchanged, or throws a usage error (exit 2) naming what is wrong with it.
export function checkId(id: string, what = 'id'): string {
  const problem = idProblem(id)
  if (problem) throw new UsageError(`${what} ${JSON.stringify(id)} ${problem}`)
  return id
}

// The id as one path segment, whatever characters it holds (`chm:9b/2e` → `chm%3A9b%2F2e`).
export function pathSegment(id: string, what = 'id'): string {
  return encodeURIComponent(checkId(id, what))
}
