// The CSV formula guard (contract §4, OWASP "CSV injection"): a spreadsheet runs a cell that
// starts with `=`, `+`, `-`, `@`, a tab or a carriage return as a formula, so any member of a
// shared directory could plant `=HYPERLINK(…)` in an admin's export. Such a cell is written with
// a leading `'`, which spreadsheets take as "text follows" and do not show; CSV input drops that
// one `'` again, so `-o csv` output reads back into `members add --from-file` unchanged.
//
// A cell that already starts with quotes before such a character (`'=x`) gets one more, so that
// dropping one on input gives back exactly what was written: the guard and its undoing are exact
// inverses for every text, phones like `+49 30 1` included.
const GUARDED = /^'*[=+\-@\t\r]/
const UNGUARD = /^'+[=+\-@\t\r]/

export function guardFormula(cell: string): string {
  return GUARDED.test(cell) ? `'${cell}` : cell
}

export function unguardFormula(cell: string): string {
  return UNGUARD.test(cell) ? cell.slice(1) : cell
}
