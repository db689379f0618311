// Shell command lines laid out in a width, so that they still run as copied: broken at a space
// outside quotes, each line but the last continued with ` \`. Used by a command's examples
// (./help.ts) and by the shell code blocks of the manual (./render.ts).

// The words of a command line, quotes kept.
export function shellWords(line: string): string[] {
  return line.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? []
}

// Words on lines of at most `width` cells (a longer word has a line of its own).
export function wrapWords(words: readonly string[], width: number): string[] {
  const lines: string[] = []
  for (const word of words) {
    const current = lines.at(-1)
    if (current !== undefined && current.length + 1 + word.length <= width) {
      lines[lines.length - 1] = `${current} ${word}`
    } else lines.push(word)
  }
  return lines
}

// A command's words on lines of at most `width` cells, each but the last ending in ` \`; with
// `last` false the command goes on after them, so the last one ends in ` \` too.
export function continued(words: readonly string[], width: number, last = true): string[] {
  const whole = words.join(' ')
  if (last && whole.length <= width) return [whole]
  const lines = wrapWords(words, width - 2)
  return lines.map((line, at) => (!last || at < lines.length - 1 ? `${line} \\` : line))
}

// A line of a shell code block in `width` cells: a trailing comment that does not fit goes on a
// line of its own above the command; a command that still does not fit is continued, its further
// lines standing in two more. A line inside quotes or with unbalanced ones stays as it is.
export function shellLines(line: string, width: number): string[] {
  if (line.length <= width) return [line]
  const indent = /^\s*/.exec(line)![0]
  // A comment wraps as comments.
  const commented = (text: string) =>
    wrapWords(text.replace(/^#\s*/, '').split(' '), width - indent.length - 2).map(
      (l) => `${indent}# ${l}`,
    )
  if (line.trimStart().startsWith('#')) return commented(line.trimStart())
  if (!balanced(line)) return [line]
  const comment = trailingComment(line)
  const command = comment === undefined ? line : line.slice(0, comment).trimEnd()
  const above = comment === undefined ? [] : commented(line.slice(comment))
  if (command.length <= width) return [...above, command]
  const [first, ...rest] = continued(shellWords(command), width - indent.length - 2)
  return [...above, `${indent}${first}`, ...rest.map((l) => `${indent}  ${l}`)]
}

// Whether every quote the line opens it closes too; where a ` # comment` outside quotes starts,
// if it has one after a command.
function balanced(line: string): boolean {
  return scan(line).closed
}

function trailingComment(line: string): number | undefined {
  return scan(line).comment
}

function scan(line: string): { closed: boolean; comment?: number } {
  let quote: string | undefined
  for (let at = 0; at < line.length; at++) {
    const char = line[at]!
    if (quote) {
      if (char === quote) quote = undefined
    } else if (char === "'" || char === '"') quote = char
    else if (char === '#' && at > 0 && /\s/.test(line[at - 1]!) && line.slice(0, at).trim()) {
      return { closed: true, comment: at }
    }
  }
  return { closed: quote === undefined }
}
