import { UsageError } from '../errors.js'

export type InputLocation = { source: string; line?: number; row?: number }

// A file the user gave us is wrong or unreadable: their mistake, so exit 2 with a message that
// names the file (or "stdin") and, where known, the line or row to fix.
export class InputError extends UsageError {
  readonly source: string
  readonly line: number | undefined
  readonly row: number | undefined

  constructor(message: string, at: InputLocation) {
    super(message)
    this.name = 'InputError'
    this.source = at.source
    this.line = at.line
    this.row = at.row
  }
}
