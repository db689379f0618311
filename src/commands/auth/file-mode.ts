// " (mode 0600)", as the config file is: what is said of a secret kept there is said only when
// true, and nothing where there are no POSIX modes.
export function describeMode(mode: number | undefined): string {
  if (mode === undefined || process.platform === 'win32') return ''
  return ` (mode 0${mode.toString(8).padStart(3, '0')})`
}
