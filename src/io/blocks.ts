// Tables in accessible mode: a screen reader reads a row of aligned cells as one run of words,
// with the header far above it, so each record is a block of `key: value` lines, a line per
// column, and a blank line between records, as gcloud's screen-reader mode prints its lists.
// Nothing is cut and no column is left out (the width of the terminal does not matter to a
// listener); each value is written as a table shows it (a date-time to the second, text from
// outside escaped). Streams as a table does: one batch of records at a time.
import type { Column } from '../types/columns.js'
import type { Table } from './table.js'
import { tableCell } from './table.js'
import { escapeForTerminal } from './terminal-text.js'
import { getPath } from './values.js'

export function startBlocks(columns: readonly Column[]): Table {
  let first = true
  return {
    render(records) {
      let text = ''
      for (const record of records) {
        if (!first) text += '\n'
        first = false
        for (const column of columns) {
          const value = tableCell(getPath(record, column.field), column)
          // An empty value leaves no trailing space.
          text += `${escapeForTerminal(column.field)}:${value === '' ? '' : ` ${value}`}\n`
        }
      }
      return text
    },
    dropped: [],
  }
}
