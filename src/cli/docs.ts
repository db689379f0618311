// docs/ and man/chamberctl.1, generated from the command tree and the manual, so that no page is
// written twice and none goes stale: scripts/docs.mjs (`npm run docs`, and the build) writes what
// this returns, and CI fails when the committed files differ. Not part of the bundle.
import type { Command } from 'commander'
import { VERSION } from '../cmdutil/version.js'
import { processIO } from '../io/streams.js'
import { globalOptionsHelp } from './help.js'
import { commandPath, TOPICS } from './tree.js'
import type { Topic } from './tree.js'
import { createContext } from './main.js'
import { allCommands, commandMarkdown, TOPIC_TEXT } from './manual.js'
import { createProgram } from './program.js'

const GENERATED =
  '<!-- Generated from the command tree by `npm run docs`: edit src/, not this file. -->'

// Every generated file, by its path in the repository. The tree is built as `chamberctl help`
// builds it, without the environment of whoever runs this, and at commander's default width.
export function docFiles(): Record<string, string> {
  const io = { ...processIO(), env: {}, stdoutIsTTY: false, stdoutWidth: undefined }
  const program = createProgram(createContext(io))
  const commands = allCommands(program)
  const files: Record<string, string> = {}
  const page = (command: Command) =>
    `commands/${['chamberctl', ...commandPath(command)].join('-')}.md`
  for (const command of commands) {
    files[`docs/${page(command)}`] = `${GENERATED}\n\n${commandMarkdown(command, 1).trimEnd()}\n`
  }
  for (const topic of Object.keys(TOPICS) as Topic[]) {
    files[`docs/topics/${topic}.md`] = `${GENERATED}\n\n${TOPIC_TEXT[topic].trimEnd()}\n`
  }
  files['docs/options.md'] =
    `${GENERATED}\n\n# Global options\n\n\`\`\`\n${globalOptionsHelp(program).trimEnd()}\n\`\`\`\n`
  files['docs/README.md'] = [
    GENERATED,
    '',
    '# chamberctl manual',
    '',
    `The same pages as \`chamberctl help\` prints (chamberctl ${VERSION}), and as \`man chamberctl\`.`,
    '',
    '## Commands',
    '',
    ...commands.map(
      (c) => `- [chamberctl ${commandPath(c).join(' ')}](${page(c)}): ${c.description()}`,
    ),
    '',
    '## Topics',
    '',
    ...Object.entries(TOPICS).map(([name, what]) => `- [${name}](topics/${name}.md): ${what}`),
    '- [global options](options.md): the options every command takes where they apply',
    '',
  ].join('\n')
  files['man/chamberctl.1'] = manPage(program, commands)
  return files
}

const MAN_SECTIONS: [Topic, string][] = [
  ['environment', 'ENVIRONMENT'],
  ['exit-codes', 'EXIT STATUS'],
  ['credentials', 'CREDENTIALS'],
  ['formatting', 'OUTPUT'],
  ['bulk', 'CREATING RECORDS'],
  ['fixtures', 'FIXTURES'],
]

function manPage(program: Command, commands: Command[]): string {
  const out = [
    `.TH CHAMBERCTL 1 "" "chamberctl ${VERSION}" "User Commands"`,
    '.SH NAME',
    `chamberctl \\- ${roffText(program.description().toLowerCase())}`,
    '.SH SYNOPSIS',
    '.B chamberctl',
    '.I command',
    '[\\fIsubcommand\\fR] [\\fIoptions\\fR]',
    '.SH DESCRIPTION',
    roffText(program.description()) + '.',
    'Every page of this manual is also printed by',
    '.BR "chamberctl help" ;',
    '.B chamberctl help reference',
    'prints every command.',
    '.SH COMMANDS',
  ]
  for (const command of commands) {
    out.push(`.SS ${roffText(['chamberctl', ...commandPath(command)].join(' '))}`)
    out.push(markdownToRoff(commandMarkdown(command).replace(/^#+ .*\n/, '')))
  }
  out.push('.SH GLOBAL OPTIONS', '.nf', roffText(globalOptionsHelp(program).trimEnd()), '.fi')
  for (const [topic, title] of MAN_SECTIONS) {
    out.push(`.SH ${title}`, markdownToRoff(TOPIC_TEXT[topic].replace(/^# .*\n/, '')))
  }
  out.push('.SH SEE ALSO', '.BR node (1)')
  return `${out.join('\n').replace(/\n{2,}/g, '\n')}\n`
}

// The Markdown the manual is written in, as roff: headings, paragraphs, lists, code blocks,
// `code` and **bold**.
export function markdownToRoff(markdown: string): string {
  const out: string[] = []
  let code = false
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) {
      out.push(code ? '.fi\n.RE' : '.RS 4\n.nf')
      code = !code
      continue
    }
    if (code) {
      out.push(line === '' ? '.sp' : roffText(line))
      continue
    }
    const heading = /^#{1,6} (.*)$/.exec(line)
    if (heading) out.push(`.SS ${roffText(heading[1]!.replace(/`/g, ''))}`)
    else if (line.trim() === '') out.push('.PP')
    else if (/^- /.test(line)) out.push('.IP \\(bu 2', inline(line.slice(2)))
    else if (/^ {4}/.test(line)) out.push('.nf', roffText(line), '.fi')
    else out.push(inline(line.trim()))
  }
  if (code) out.push('.fi\n.RE')
  return out.join('\n')
}

function inline(text: string): string {
  return roffText(text)
    .replace(/`([^`]+)`/g, '\\fB$1\\fR')
    .replace(/\*\*([^*]+)\*\*/g, '\\fB$1\\fR')
}

// Text as roff reads it literally: backslashes escaped, no line starting with a control character,
// and every character beyond ASCII as its Unicode escape (troff reads bytes, not UTF-8).
function roffText(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(
      /[^\p{ASCII}]/gu,
      (c) => `\\[u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}]`,
    )
    .split('\n')
    .map((line) => (/^[.']/.test(line) ? `\\&${line}` : line))
    .join('\n')
}
