// What a table column is, shared by the resource descriptors (src/api/resources) that declare
// them and the table printer (src/io/table.ts) that fits them: the printer knows no column names.

// never: always shown, never cut (an id). ellipsis: free text, cut with … to share the room left.
// drop: shown whole or not at all (e-mails, dates, codes): left out, from the end of the order,
// when it does not fit.
export type Cut = 'never' | 'ellipsis' | 'drop'

export type FieldSpec = {
  cut: Cut
  // The cells its values usually take ('never', 'drop'), or the fewest it is cut to ('ellipsis').
  // Which columns a width shows is decided from these (and the headers), never from the records,
  // so that the same command at the same width shows the same columns whatever the page holds.
  width: number
  // The main text column (a name, a title): at least 20 cells before any later column is shown.
  main?: boolean
  // An ISO 8601 date-time: shown to the second in a table.
  time?: boolean
  // A state (active, failed…): coloured by what it says.
  state?: boolean
}

export type Column = FieldSpec & {
  // A dotted path into the record (address.city); also the header.
  field: string
  // Its place in the order of importance, when that is not the order of the columns.
  rank?: number
}
