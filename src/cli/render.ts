// The manual's Markdown as a person reads it: on a terminal styled and wrapped to its width, in a
// pipe plain text (no escape sequence, no `#` or backtick) wrapped at the width given. markdansi
// renders it (marked's parser, string-width's cells; bench/README.md says why this one); only help
// imports this module, so no other command loads either.
import { stripVTControlCharacters } from 'node:util'
import { render } from 'markdansi'
import type { RenderOptions } from 'markdansi'
import { Lexer } from 'marked'
import type { Token } from 'marked'
import stringWidth from 'string-width'
import { shellLines } from './shell-lines.js'

export type Page = { width: number; color: boolean }

// Code blocks stand this far in from the text, as the examples of a command's help do.
const CODE_INDENT = '  '

// markdansi sets a paragraph right under the one before it (it is made for chat replies); each
// top-level block is rendered on its own here, so that one blank line separates every two.
export function renderMarkdown(markdown: string, { width, color }: Page): string {
  const options: RenderOptions = {
    width,
    color,
    hyperlinks: false,
    // A cell that does not fit wraps rather than loses its end.
    tableTruncate: false,
    codeBox: false,
  }
  const blocks = Lexer.lex(markdown)
    .filter((block) => block.type !== 'space')
    .map((block) =>
      block.type === 'code'
        ? indent(
            render(codeFor(block, width - CODE_INDENT.length), {
              ...options,
              width: width - CODE_INDENT.length,
            }),
          )
        : render(block.raw, options),
    )
    .map((text) => text.replace(/^\n+|\s+$/g, ''))
    .filter((text) => text !== '')
  return `${blocks.map((text) => fit(text, width)).join('\n\n')}\n`
}

// A shell code block with its lines laid out in `width` cells (./shell-lines.ts); any other as
// written.
function codeFor(block: Token, width: number): string {
  if (block.type !== 'code' || !SHELL.has(block.lang ?? '')) return block.raw
  const text = (block.text as string)
    .split('\n')
    .flatMap((line) => shellLines(line, width))
    .join('\n')
  return `\`\`\`${block.lang}\n${text}\n\`\`\`\n`
}

const SHELL = new Set(['sh', 'bash', 'shell'])

// markdansi lets a word longer than its line (or its table cell) run past it; such a line is cut
// where the terminal would have broken it, without its colours.
function fit(text: string, width: number): string {
  return text
    .split('\n')
    .flatMap((line) => (stringWidth(line) <= width ? [line] : cut(line, width)))
    .join('\n')
}

function cut(line: string, width: number): string[] {
  const pieces = ['']
  for (const char of stripVTControlCharacters(line)) {
    if (stringWidth(pieces.at(-1)! + char) > width) pieces.push('')
    pieces[pieces.length - 1] += char
  }
  return pieces
}

function indent(text: string): string {
  return text
    .replace(/\s+$/, '')
    .split('\n')
    .map((line) => (line === '' ? line : `${CODE_INDENT}${line}`))
    .join('\n')
}
