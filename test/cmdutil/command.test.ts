// Exactly<F, Flags>, the check tsc makes between the flags commander infers for a command and the
// ones its verb's toOptions declares. What it refuses is refused by `tsc --noEmit`, so each
// expected error below fails the type check the day the refusal stops.
import { describe, expect, it } from 'vitest'
import type { Exactly } from '../../src/cmdutil/command.js'

type Flags = { sort?: string; page?: number }
const toOptions = <F extends Flags>(flags: Exactly<F, Flags>): Flags => flags

// As commander infers them: every declared flag optional.
const declared: { sort?: string; page?: number } = { sort: '-name' }
const renamed: { order?: string; page?: number } = { order: '-name' }
const added: { sort?: string; page?: number; all?: boolean } = { all: true }
const dropped: { page?: number } = { page: 2 }
const retyped: { sort?: number; page?: number } = { sort: 1 }

describe('Exactly', () => {
  it('takes the flags a verb declares', () => {
    expect(toOptions(declared)).toEqual({ sort: '-name' })
  })

  it('refuses a flag renamed, added, dropped or of another type', () => {
    // @ts-expect-error --sort renamed --order on the command only
    expect(toOptions(renamed)).toBe(renamed)
    // @ts-expect-error --all declared on the command, unknown to toOptions
    expect(toOptions(added)).toBe(added)
    // @ts-expect-error --sort dropped from the command
    expect(toOptions(dropped)).toBe(dropped)
    // @ts-expect-error --sort parsed as a number
    expect(toOptions(retyped)).toBe(retyped)
  })
})
