// The manual: the help topics' text, the commands' long descriptions, and `help reference`, all
// generated from the command tree. Loaded only when help is printed, never by an ordinary command.
import type { Command } from 'commander'
import bulk from './topics/bulk.md?raw'
import credentials from './topics/credentials.md?raw'
import environment from './topics/environment.md?raw'
import exitCodes from './topics/exit-codes.md?raw'
import fixtures from './topics/fixtures.md?raw'
import formatting from './topics/formatting.md?raw'
import commands from './topics/commands.md?raw'
import { examplesOf, longOf, takesGlobal, topicsOf } from '../cmdutil/manual.js'
import type { Topic } from './tree.js'
import { commandPath, isHidden } from './tree.js'

export const TOPIC_TEXT: Record<Topic, string> = {
  environment,
  'exit-codes': exitCodes,
  formatting,
  bulk,
  fixtures,
  credentials,
}

// The reference's introduction: what holds for every command.
export const COMMANDS_INTRO = commands

export function topicText(topic: Topic): string {
  return TOPIC_TEXT[topic]
}

// Every command that is not hidden, parents before their subcommands, in the order of the help.
export function allCommands(program: Command): Command[] {
  const out: Command[] = []
  const visit = (command: Command) => {
    for (const child of command.commands) {
      if (isHidden(child)) continue
      out.push(child)
      visit(child)
    }
  }
  visit(program)
  return out
}

// One command in Markdown: what it does, how it is called, its options, the global options that
// apply to it, its long description and its examples.
export function commandMarkdown(command: Command, level = 2): string {
  const helper = command.createHelp()
  const path = ['chamberctl', ...commandPath(command)].join(' ')
  const description = helper.commandDescription(command)
  const sentence = `${description.charAt(0).toUpperCase()}${description.slice(1)}.`
  const out = [`${'#'.repeat(level)} ${path}`, '', sentence, '']
  const usage = helper.commandUsage(command)
  out.push('```', usage.startsWith('chamberctl') ? usage : `${path} ${usage}`, '```', '')
  if (command.aliases().length) {
    out.push(
      `Aliases: ${command
        .aliases()
        .map((a) => `\`${a}\``)
        .join(', ')}`,
      '',
    )
  }
  const args = helper.visibleArguments(command)
  if (args.length) {
    out.push('Arguments:', '')
    for (const a of args)
      out.push(`- \`${helper.argumentTerm(a)}\`: ${helper.argumentDescription(a)}`)
    out.push('')
  }
  const subcommands = helper.visibleCommands(command)
  if (subcommands.length) {
    out.push('Commands:', '')
    for (const c of subcommands) {
      out.push(`- \`${path} ${c.name()}\`: ${helper.subcommandDescription(c)}`)
    }
    out.push('')
  }
  const options = helper.visibleOptions(command).filter((o) => o.long !== '--help')
  if (options.length) {
    out.push('Options:', '')
    for (const o of options)
      out.push(`- \`${helper.optionTerm(o)}\`: ${helper.optionDescription(o)}`)
    out.push('')
  }
  const globals = rootOf(command).options.filter(
    (o) => o.long !== '--version' && takesGlobal(command, o.long ?? ''),
  )
  if (globals.length) {
    const names = globals.map((o) => `\`${o.long}\``).join(', ')
    out.push(`Global options: ${names} (see \`chamberctl help options\`).`, '')
  }
  const long = longOf(command)
  if (long) out.push(demoteHeadings(long.trim(), level - 1), '')
  const examples = examplesOf(command)
  if (examples.length) {
    out.push('Examples:', '', '```sh')
    out.push(examples.map(([what, line]) => `# ${what}\n${line}`).join('\n\n'))
    out.push('```', '')
  }
  const topics = topicsOf(command)
  if (topics.length) {
    out.push(`Learn more: ${topics.map((t) => `\`chamberctl help ${t}\``).join(', ')}.`, '')
  }
  return out.join('\n')
}

// `help reference`: every command, its flags and examples, in one Markdown document.
export function reference(program: Command): string {
  return [
    '# chamberctl reference',
    '',
    COMMANDS_INTRO.replace(/^# .*\n+/, '').trim(),
    '',
    ...allCommands(program).map((c) => commandMarkdown(c)),
  ].join('\n')
}

function rootOf(command: Command): Command {
  let c = command
  while (c.parent) c = c.parent
  return c
}

// Markdown whose headings sit `by` levels lower (under a command's own heading); lines in code
// blocks are left alone, `# comments` included.
function demoteHeadings(markdown: string, by: number): string {
  let code = false
  return markdown
    .split('\n')
    .map((line) => {
      if (line.startsWith('```')) code = !code
      return !code && /^#+ /.test(line) ? `${'#'.repeat(by)}${line}` : line
    })
    .join('\n')
}
