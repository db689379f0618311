// "(mode 0600)" is said of the config file only as it is.
import { describe, expect, it } from 'vitest'
import { describeMode } from '../../../src/commands/auth/file-mode.js'

describe.runIf(process.platform !== 'win32')('describeMode', () => {
  it('says the mode the file has, or nothing without a file', () => {
    expect(describeMode(0o600)).toBe(' (mode 0600)')
    expect(describeMode(0o644)).toBe(' (mode 0644)')
    expect(describeMode(0o40)).toBe(' (mode 0040)')
    expect(describeMode(undefined)).toBe('')
  })
})
