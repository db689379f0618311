// What to offer for the words typed so far, worked out from the model in this process: the
// PowerShell script hands its words to `chamberctl __complete words` (cobra's way), where bash,
// zsh and fish walk a tree generated into the script itself. The walk is the same: options and
// their values are skipped as commander would, the first words that name subcommands choose the
// command, and --profile, --base-url and --sandbox on the line choose the server for chamber ids.
import type { Command } from 'commander'
import type { Context } from '../../cmdutil/context.js'
import { resolveGlobals } from '../../cmdutil/globals.js'
import { chamberChoices, chamberLabel } from './chamber-ids.js'
import type { CommandSpec, OptionSpec, ValueCompletion } from './model.js'
import { describeProgram, optionWords } from './model.js'
import { WORD_MARK } from './powershell.js'
import { profileChoices } from './profiles.js'

export type Candidate = { value: string; description?: string }

export type Wanted =
  | { kind: 'values'; candidates: Candidate[] }
  // A file name: the shell's own path completion does it best.
  | { kind: 'files' }
  // Values only chamberctl can list, matched against `prefix`, each written after `lead` (the
  // "--option=" of a value typed in the same word); `pass` are the words choosing the server.
  | { kind: 'chamber-ids' | 'profiles'; prefix: string; lead: string; pass: string[] }

// `chamberctl __complete words :WORD...` (each word behind WORD_MARK): one candidate a line, value<TAB>description, then one
// last line, `:files` when a file name is wanted (the shell completes it) or else `:values`.
export async function completeWords(
  program: Command,
  marked: readonly string[],
  ctx: Context,
): Promise<void> {
  const typed = marked.map((word) => (word.startsWith(WORD_MARK) ? word.slice(1) : word))
  const want = wanted(describeProgram(program), typed)
  const candidates = want.kind === 'files' ? [] : await lookup(want, ctx)
  ctx.io.out.write(
    candidates
      .map(({ value, description }) => (description ? `${value}\t${description}\n` : `${value}\n`))
      .join('') + (want.kind === 'files' ? ':files\n' : ':values\n'),
  )
}

async function lookup(want: Exclude<Wanted, { kind: 'files' }>, ctx: Context) {
  if (want.kind === 'values') return want.candidates
  let found: Candidate[]
  if (want.kind === 'profiles') {
    found = (await profileChoices(ctx)).map((name) => ({ value: name }))
  } else {
    try {
      ctx.globals = resolveGlobals(
        {
          sandbox: want.pass.includes('--sandbox'),
          profile: passed(want.pass, '--profile'),
          baseUrl: passed(want.pass, '--base-url'),
        },
        ctx.io,
      )
    } catch {
      return []
    }
    found = (await chamberChoices(ctx)).map((chamber) => ({
      value: chamber.id,
      description: chamberLabel(chamber),
    }))
  }
  return found
    .filter(({ value }) => value.startsWith(want.prefix))
    .map((candidate) => ({ ...candidate, value: want.lead + candidate.value }))
}

// The value of --NAME in words such as `--profile work` or `--profile=work`; the last one counts.
function passed(pass: readonly string[], name: string): string | undefined {
  let value: string | undefined
  pass.forEach((word, i) => {
    if (word === name) value = pass[i + 1]
    else if (word.startsWith(`${name}=`)) value = word.slice(name.length + 1)
  })
  return value
}

// `typed`: the words after the program's name up to the cursor, the last one the word being
// completed ('' after a blank).
export function wanted(program: CommandSpec, typed: readonly string[]): Wanted {
  const current = typed.at(-1) ?? ''
  const before = typed.slice(0, -1)
  let command = program
  let n = 0
  let options = true
  let pending: ValueCompletion | undefined
  const pass: string[] = []
  for (let i = 0; i < before.length; i++) {
    const word = before[i]!
    if (options && /^-./.test(word)) {
      if (word === '--') options = false
      else if (word === '--sandbox' || /^--(profile|base-url)=/.test(word)) pass.push(word)
      else if (!/^--[^=]*=/.test(word)) {
        const value = findOption(program, command, word)?.value
        if (!value) continue
        if (i + 1 === before.length) pending = value.complete
        else {
          i++
          if (word === '--profile' || word === '--base-url') pass.push(word, before[i]!)
        }
      }
    } else {
      const child = n === 0 ? findCommand(command, word) : undefined
      if (child) command = child
      else n++
    }
  }

  const value = (complete: ValueCompletion, prefix: string, lead = ''): Wanted => {
    switch (complete.kind) {
      case 'none':
        return { kind: 'values', candidates: [] }
      case 'files':
        return { kind: 'files' }
      case 'choices':
        return {
          kind: 'values',
          candidates: complete.values
            .filter((choice) => choice.startsWith(prefix))
            .map((choice) => ({ value: lead + choice })),
        }
      case 'list': {
        // The fields already given are not offered again.
        const head = prefix.slice(0, prefix.lastIndexOf(',') + 1)
        const given = head.split(',')
        return {
          kind: 'values',
          candidates: complete.values
            .filter(
              (field) => field.startsWith(prefix.slice(head.length)) && !given.includes(field),
            )
            .map((field) => ({ value: lead + head + field })),
        }
      }
      default:
        return { kind: complete.kind, prefix, lead, pass }
    }
  }

  if (pending) return value(pending, current)
  const assigned = options ? /^(--[^=]+)=(.*)$/.exec(current) : null
  if (assigned) {
    const option = findOption(program, command, assigned[1]!)?.value
    return option ? value(option.complete, assigned[2]!, `${assigned[1]}=`) : value(NONE, '')
  }
  if (options && current.startsWith('-')) {
    const all = command === program ? program.options : [...command.options, ...program.options]
    return {
      kind: 'values',
      candidates: all.flatMap((option) =>
        optionWords(option)
          .filter((word) => word.startsWith(current))
          .map((word) => ({ value: word, description: option.description })),
      ),
    }
  }
  if (n === 0 && command.commands.length > 0) {
    return {
      kind: 'values',
      candidates: command.commands
        .filter((child) => child.name.startsWith(current))
        .map((child) => ({ value: child.name, description: child.description })),
    }
  }
  const last = command.args.at(-1)
  const argument = command.args[n] ?? (last?.variadic ? last : undefined)
  return value(argument?.complete ?? NONE, current)
}

const NONE: ValueCompletion = { kind: 'none' }

// A command's own option first: one of them may reuse a global name for a flag.
function findOption(program: CommandSpec, command: CommandSpec, word: string) {
  const named = (option: OptionSpec) => optionWords(option).includes(word)
  return command.options.find(named) ?? command.overrides.find(named) ?? program.options.find(named)
}

function findCommand(command: CommandSpec, word: string): CommandSpec | undefined {
  return command.commands.find((child) => child.name === word || child.aliases.includes(word))
}
