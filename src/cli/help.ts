// Help that teaches, the way gh's does. The root help lists the commands first and the help
// topics after them; the global options are behind `help options`. A command's help lists its own
// options, one line naming `help options <command>` (the global options that apply to it), its
// long description and its examples. `help <command...>` finds a command by its path (or says
// which ones come close); `help <topic>`, `help options` and `help reference` print the manual,
// whose text is loaded only then. Markdown is rendered for the reader (./render.ts), and help
// longer than the terminal goes through the pager.
import { Help } from 'commander'
import type { Command, Option } from 'commander'
import type { Context } from '../cmdutil/context.js'
import { pagerCommand } from '../cmdutil/globals.js'
import { about, examplesOf, longOf, takesGlobal, topicsOf } from '../cmdutil/manual.js'
import { UsageError } from '../errors.js'
import { colorEnabled } from '../io/color.js'
import type { IO } from '../io/streams.js'
import { isNear } from '../io/suggest.js'
import type { Page, renderMarkdown } from './render.js'
import { continued, shellWords, wrapWords } from './shell-lines.js'
import { commandPath, isHidden, TOPICS } from './tree.js'
import type { Topic } from './tree.js'

const MANUAL_PAGES = {
  options: 'the global options',
  reference: 'every command, its flags and examples',
}

// The Markdown renderer (./render.ts), loaded by whatever prints help before commander asks for
// the text, which it does synchronously: the help command, a noun alone, and main for --help.
let renderer: typeof renderMarkdown | undefined

export async function loadRenderer(): Promise<void> {
  renderer ??= (await import('./render.js')).renderMarkdown
}

// Whether the command line asks commander for the help of a command that has a manual page
// (`--help` or `-h`, alone or in a cluster of short flags): only that help needs the renderer.
export function helpNeedsRenderer(program: Command, args: readonly string[]): boolean {
  if (!args.some((arg) => arg === '--help' || /^-[a-zA-Z]*h[a-zA-Z]*$/.test(arg))) return false
  let command = program
  for (const arg of args) {
    command = command.commands.find((c) => c.name() === arg || c.aliases().includes(arg)) ?? command
  }
  return longOf(command) !== undefined
}

// How the manual is set for this stdout: the terminal's width (80 in a pipe), colour as for
// everything else printed.
export function pageOf(io: IO, width = io.stdoutWidth ?? 80): Page {
  return { width, color: colorEnabled({ env: io.env, isTTY: io.stdoutIsTTY }) }
}

export function forReader(markdown: string, page: Page): string {
  // Never reached by a path that prints help (each loads the renderer first): the source is the
  // next best thing.
  return renderer ? renderer(markdown, page) : `${markdown.trimEnd()}\n`
}

// Below this many cells beside its term, an item's description goes under the term instead.
const MIN_DESCRIPTION_WIDTH = 20
// How far a description under its term stands in.
const UNDER_TERM = ' '.repeat(6)

export function configureHelp(program: Command, io: IO): void {
  program.configureHelp({
    // Descriptions wrap even in a narrow terminal (commander stops wrapping below 40 columns).
    minWidthToWrap: MIN_DESCRIPTION_WIDTH,
    formatHelp(cmd, helper) {
      if (!cmd.parent) return rootHelp(cmd, helper)
      const page = pageOf(io, helper.helpWidth)
      return Help.prototype.formatHelp.call(helper, cmd, helper) + commandExtras(cmd, helper, page)
    },
    // The usage line wraps under itself.
    commandUsage(this: Help, cmd) {
      const usage = Help.prototype.commandUsage.call(this, cmd)
      const shown = cmd.parent
        ? usage
        : usage.replace('[options] [command]', '<command> [subcommand] [options]')
      const indent = ' '.repeat('Usage: '.length)
      return this.boxWrap(shown, helpWidthOf(this) - indent.length).replaceAll('\n', `\n${indent}`)
    },
    // Where the terms leave too little room beside them (a narrow terminal), each description
    // goes under its term, wrapped to the terminal.
    formatItem(this: Help, term, termWidth, description, helper) {
      if (!description || helpWidthOf(this) - termWidth - 4 >= MIN_DESCRIPTION_WIDTH) {
        return Help.prototype.formatItem.call(this, term, termWidth, description, helper)
      }
      const wrapped = helper.boxWrap(description, helpWidthOf(this) - UNDER_TERM.length)
      return `  ${term}\n${UNDER_TERM}${wrapped.replaceAll('\n', `\n${UNDER_TERM}`)}`
    },
  })
}

function helpWidthOf(helper: Help): number {
  return helper.helpWidth ?? HELP_WIDTH
}

// `What: command to type` on one line where it fits, else the command on a line of its own under
// the words, so that it is never broken.
function pointer(helper: Help, what: string, command: string, width: number): string {
  const line = `${what} ${command}`
  if (helper.displayWidth(line) <= width) return line
  // A command too long for its own line is continued with ` \` as the examples are.
  const [first, ...rest] = continued(shellWords(command), width - 4)
  return [helper.boxWrap(what, width), `  ${first}`, ...rest.map((l) => `    ${l}`)].join('\n')
}

// commander's own default, for help that goes to a pipe or to stderr.
export const HELP_WIDTH = 80

// Help is written to stdout through this: through the pager when stdout is a terminal and the
// text is longer than it, under the rules every paged output follows (cmdutil/globals.ts).
// commander writes synchronously; the pager is waited for with the command's clean-up. `--help`
// comes before the global options are resolved: `paging` is whether --no-pager was not given.
export function writeHelp(
  ctx: Pick<Context, 'io' | 'globals' | 'cleanup' | 'waiting'>,
  text: string,
  paging: boolean,
): void {
  const { io } = ctx
  const pager = pagerCommand(io.env, paging)
  const rows = io.stdoutRows
  const fits = rows !== undefined && text.split('\n').length <= rows
  if (!io.stdoutIsTTY || !pager || fits) {
    io.out.write(text)
    return
  }
  const done = import('../cmdutil/print.js').then(({ paged }) =>
    paged({ io, globals: { ...ctx.globals, pager }, waiting: ctx.waiting }, async (pagedCtx) => {
      pagedCtx.io.out.write(text)
    }),
  )
  ctx.cleanup.push(() => done)
}

// What the help shows after commander's part: where the global options are, the long
// description, the examples, then the topics that say more.
function commandExtras(cmd: Command, helper: Help, page: Page): string {
  const parts: string[] = []
  if (takesGlobals(cmd)) {
    const command = `chamberctl help options ${commandPath(cmd).join(' ')}`
    parts.push(pointer(helper, 'Global options:', command, page.width))
  }
  const long = longOf(cmd)
  if (long) parts.push(forReader(long, page).trimEnd())
  const examples = exampleText(cmd, page.width)
  if (examples) parts.push(`Examples:\n${examples}`)
  const topics = topicsOf(cmd)
  if (topics.length)
    parts.push(`Learn more:\n${topics.map((t) => `  chamberctl help ${t}`).join('\n')}`)
  if (!parts.length) return ''
  return `\n${parts.join('\n\n')}\n`
}

// The examples in `width` columns: the comment wrapped as comments, the command line continued
// with ` \` where it breaks (as the examples that already do go on under the command), so that
// it still runs as copied.
export function exampleText(cmd: Command, width = HELP_WIDTH): string {
  return examplesOf(cmd)
    .map(([what, line]) => {
      const comment = wrapWords(what.split(' '), width - '  # '.length).map((l) => `  # ${l}`)
      return [...comment, ...commandLines(line, width)].join('\n')
    })
    .join('\n\n')
}

// `$ command`, the author's continuation lines under it, each broken again where it does not fit.
function commandLines(line: string, width: number): string[] {
  const segments = line.split(/ \\\n\s*/)
  return segments.flatMap((segment, at) =>
    // Every line stands in 4 cells: "  $ " or "    ".
    continued(shellWords(segment), width - 4, at === segments.length - 1).map((l, i) =>
      at === 0 && i === 0 ? `  $ ${l}` : `    ${l}`,
    ),
  )
}

function rootHelp(program: Command, helper: Help): string {
  const commands = helper.visibleCommands(program)
  const options = helper
    .visibleOptions(program)
    .filter((o) => o.long === '--version' || o.long === '--help')
  const topics = Object.entries(TOPICS)
  const terms = [
    ...commands.map((c) => helper.subcommandTerm(c)),
    ...options.map((o) => helper.optionTerm(o)),
    ...topics.map(([name]) => name),
    ...Object.keys(MANUAL_PAGES),
  ]
  const width = Math.max(...terms.map((t) => helper.displayWidth(t)))
  const item = (term: string, description: string) =>
    helper.formatItem(term, width, description, helper)
  const section = (title: string, items: string[]) => [title, ...items, '']
  const examples = exampleText(program, helpWidthOf(helper))
  return [
    helper.boxWrap(helper.commandDescription(program), helpWidthOf(helper)),
    '',
    `Usage: ${helper.commandUsage(program)}`,
    '',
    ...section(
      'Commands:',
      commands.map((c) => item(helper.subcommandTerm(c), helper.subcommandDescription(c))),
    ),
    ...section(
      'Help topics (chamberctl help <topic>):',
      [...topics, ...Object.entries(MANUAL_PAGES)].map(([name, what]) => item(name, what)),
    ),
    ...section(
      'Options:',
      options.map((o) => item(helper.optionTerm(o), helper.optionDescription(o))),
    ),
    pointer(
      helper,
      'Global options, such as --profile, --sandbox, -o and --jq:',
      'chamberctl help options',
      helpWidthOf(helper),
    ),
    '',
    ...(examples ? ['Examples:', examples, ''] : []),
  ].join('\n')
}

// `help options`: every global option, with the environment variable that stands in for it;
// `help options <command...>`: those that command takes.
export function globalOptionsHelp(
  program: Command,
  command?: Command,
  helpWidth = HELP_WIDTH,
): string {
  const helper = program.createHelp()
  helper.prepareContext({ helpWidth })
  const options = program.options.filter(
    (o) => o.long !== '--version' && (!command || takesGlobal(command, o.long ?? '')),
  )
  const width = Math.max(...options.map((o) => helper.displayWidth(helper.optionTerm(o))))
  const name = command && ['chamberctl', ...commandPath(command)].join(' ')
  const wrap = (text: string) => helper.boxWrap(text, helpWidth)
  return [
    wrap(
      name
        ? `Global options that ${name} takes, before or after its name.`
        : 'Global options: every command takes those that apply to it, before or after its name.',
    ),
    '',
    ...options.map((o: Option) =>
      helper.formatItem(helper.optionTerm(o), width, helper.optionDescription(o), helper),
    ),
    '',
    ...(name
      ? []
      : [
          pointer(
            helper,
            'The ones a command takes:',
            'chamberctl help options <command...>',
            helpWidth,
          ),
        ]),
    pointer(helper, 'Environment variables:', 'chamberctl help environment', helpWidth),
    '',
  ].join('\n')
}

// Whether the command takes any global option (a noun that only groups its verbs takes none).
function takesGlobals(command: Command): boolean {
  let root = command
  while (root.parent) root = root.parent
  return root.options.some((o) => takesGlobal(command, o.long ?? ''))
}

// `help [command...|topic]`: prints the help of the command at that path, or a page of the
// manual, on stdout.
export function addHelpCommand(program: Command, io: IO): void {
  program.helpCommand(false)
  const help = program
    .command('help')
    .description('show help for a command or a topic, e.g. help members add, help environment')
    .argument('[command-or-topic...]', 'a command path, a topic, options or reference')
    .action(async (path: string[]) => {
      const write = (text: string) => program.configureOutput().writeOut?.(text)
      const [first, ...rest] = path
      if (first === 'options') {
        const command = rest.length ? findCommand(program, rest) : undefined
        if (command === undefined || takesGlobals(command))
          return write(globalOptionsHelp(program, command, pageOf(io).width))
        throw new UsageError(`chamberctl ${rest.join(' ')} takes no global options`)
      }
      if (path.length === 1 && first !== undefined) {
        if (Object.hasOwn(TOPICS, first)) {
          await loadRenderer()
          const { topicText } = await import('./manual.js')
          return write(forReader(topicText(first as Topic), pageOf(io)))
        }
        if (first === 'reference') {
          await loadRenderer()
          const { reference } = await import('./manual.js')
          return write(forReader(reference(program), pageOf(io)))
        }
      }
      await outputHelp(findCommand(program, path))
    })
  about(help, {
    // Completed with the topics, then the commands: those registered by the time it is asked.
    completes: {
      'command-or-topic': {
        words: () => [
          ...Object.keys({ ...TOPICS, ...MANUAL_PAGES }),
          ...program.commands.filter((c) => !isHidden(c)).map((c) => c.name()),
        ],
      },
    },
    examples: [
      ['The help of one command', 'chamberctl help members add'],
      ['The environment variables chamberctl reads', 'chamberctl help environment'],
      ['The global options members add takes', 'chamberctl help options members add'],
      ['Every command, its flags and examples', 'chamberctl help reference'],
    ],
  })
}

// A noun alone (`chamberctl chambers`) asks what it can do: its help is the answer, on stdout,
// exit 0. A word after it that is no verb of it is a usage error naming the verbs that come close.
export function nounsShowHelp(program: Command): void {
  for (const noun of program.commands) {
    if (!noun.commands.length) continue
    noun.allowExcessArguments().action(async (_flags: unknown, command: Command) => {
      const [typed] = command.args
      if (typed !== undefined) findCommand(program, [...commandPath(command), typed])
      await outputHelp(command)
    })
  }
}

// A command's help, with the renderer loaded first when it has a manual page.
async function outputHelp(command: Command): Promise<void> {
  if (longOf(command) !== undefined) await loadRenderer()
  command.outputHelp()
}

export function findCommand(program: Command, path: readonly string[]): Command {
  let command = program
  for (const name of path) {
    const visible = command.commands.filter((child) => !isHidden(child))
    const next = visible.find((child) => child.name() === name || child.aliases().includes(name))
    if (!next) {
      const where = [...commandPath(command), name].join(' ')
      const topics = command === program ? Object.keys({ ...TOPICS, ...MANUAL_PAGES }) : []
      throw new UsageError(`unknown command "${where}"${suggestion(name, visible, topics)}`)
    }
    command = next
  }
  return command
}

// The commands (or topics) a typo most likely meant, by name or alias; otherwise every command,
// so the user sees what there is.
function suggestion(typed: string, commands: readonly Command[], topics: string[]): string {
  const close = [
    ...commands.filter((c) => isNear(typed, [c.name(), ...c.aliases()])).map((c) => c.name()),
    ...topics.filter((t) => isNear(typed, [t])),
  ]
  return close.length
    ? ` (did you mean ${close.join(', ')}?)`
    : `; commands: ${commands.map((c) => c.name()).join(', ')}`
}
