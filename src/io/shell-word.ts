// A text as one word for a POSIX shell (sh, bash, zsh): single-quoted, a quote inside closed,
// escaped and reopened.
export function shellWord(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`
}
