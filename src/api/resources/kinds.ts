// The kinds of field a descriptor is made of, so that each resource reads as a list of names.
import type { FieldSpec } from '../../types/columns.js'

// An identifier: copied by users, so always shown and never cut.
export const id = (width: number): FieldSpec => ({ cut: 'never', width })
// A value that is useless cut (an e-mail, a phone number, a code): whole or left out.
export const whole = (width: number): FieldSpec => ({ cut: 'drop', width })
export const state = (width: number): FieldSpec => ({ cut: 'drop', width, state: true })
export const time: FieldSpec = { cut: 'drop', width: '2024-01-15T09:00:00Z'.length, time: true }
// Free text, cut with … to no fewer than `width` cells.
export const text = (width: number): FieldSpec => ({ cut: 'ellipsis', width })
export const main: FieldSpec = { cut: 'ellipsis', width: 20, main: true }
// Nested values printed as JSON in one cell.
export const nested: FieldSpec = text(10)
