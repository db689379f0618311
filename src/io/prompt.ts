// Prompts on stderr (stdout stays data), through @inquirer's single prompt packages and a search
// prompt of our own on @inquirer/core (search-prompt.ts), each loaded only when it is shown. Not
// the umbrella @inquirer/prompts: its index imports every prompt, the editor's iconv-lite
// included, so a bundle put them all in the chunk each prompt loads (607 KB); the packages on
// their own share only @inquirer/core. Ctrl-C at a prompt is a CancelError: exit 130, nothing sent.
// In accessible mode no prompt needs an arrow key: a choice is a numbered list answered by typing
// its number, a search is a typed value and then a number (as gh's accessible prompter asks).
import { Writable } from 'node:stream'
import { CancelError, CliError, ExitCode, SIGNAL_EXIT_CODES, SilentError } from '../errors.js'
import type { IO, StopReason } from './streams.js'
import { escapeForTerminal } from './terminal-text.js'

type PromptIO = Pick<IO, 'in' | 'err' | 'onStop' | 'accessible'>
// What an @inquirer prompt returns: its answer, and a way to close it early.
type Asking<T> = Promise<T> & { cancel(): void }
type Validate = (value: string) => string | true

export type Choice<T> = { value: T; name?: string; description?: string }

function streams(io: PromptIO) {
  return { input: io.in, output: promptOutput(io.err) }
}

// @inquirer pipes its output into the given stream and ends it when a prompt is done. Node spares
// process.stderr from that end, but any other stream (an injected IO) would be closed for good,
// losing every later prompt and message; a forwarding stream takes the end instead. It passes
// each chunk on at once: waiting for err's callback would hold the prompt's last redraws back
// until after an error written straight to err (Ctrl-C), drawing them over its line.
// It also passes on the terminal's size, read at every draw: @inquirer lays its lines out for
// output.columns, and without it draws for 80 columns and leaves stale lines in a narrower one.
function promptOutput(err: Writable): Writable {
  const terminal = err as Partial<Pick<NodeJS.WriteStream, 'columns' | 'rows'>>
  const output = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      err.write(chunk)
      callback()
    },
  })
  return Object.defineProperties(output, {
    columns: { get: () => terminal.columns },
    rows: { get: () => terminal.rows },
  })
}

export async function promptText(
  io: PromptIO,
  question: { message: string; default?: string; validate?: Validate; required?: boolean },
): Promise<string> {
  const { default: input } = await import('@inquirer/input')
  const required = question.required ?? true
  return cancellable(io, () =>
    input(
      {
        message: question.message,
        default: question.default,
        required,
        validate: question.validate
          ? (value) => (!required && value === '') || question.validate!(value)
          : undefined,
      },
      streams(io),
    ),
  )
}

export async function promptSecret(io: PromptIO, message: string): Promise<string> {
  const { default: password } = await import('@inquirer/password')
  return cancellable(io, () =>
    password({ message, mask: '*', validate: (value) => value !== '' || 'required' }, streams(io)),
  )
}

export async function promptSelect<T>(
  io: PromptIO,
  question: { message: string; choices: Choice<T>[]; default?: T },
): Promise<T> {
  if (io.accessible) {
    const at = question.choices.findIndex((choice) => choice.value === question.default)
    return (await promptNumber(io, question.message, question.choices, at === -1 ? undefined : at))!
  }
  const { default: select } = await import('@inquirer/select')
  return cancellable(io, () =>
    select({ ...question, choices: question.choices.map(shownChoice) }, streams(io)),
  )
}

// A list filtered as the user types; `source` may offer the typed text itself as a choice. Enter
// answers with the choice highlighted in the list shown for the text typed, however fast it came.
export async function promptSearch(
  io: PromptIO,
  question: { message: string; source: (term: string) => Choice<string>[] },
): Promise<string> {
  if (io.accessible) return typedSearch(io, question)
  const { default: search } = await import('./search-prompt.js')
  // A choice without a name shows its value, which may be the server's too.
  const source = (term: string) =>
    question
      .source(term)
      .map((choice) => shownChoice({ ...choice, name: choice.name ?? choice.value }))
  return cancellable(io, () => search({ message: question.message, source }, streams(io)))
}

// Accessible mode's search: a value typed, then the choices it matches as a numbered list. A choice
// whose value is exactly the text typed (an id, a value offered as typed) is taken at once.
async function typedSearch(
  io: PromptIO,
  question: { message: string; source: (term: string) => Choice<string>[] },
): Promise<string> {
  for (;;) {
    const term = await promptText(io, { message: question.message, required: false })
    const choices = question.source(term)
    const exact = choices.find((choice) => choice.value === term.trim())
    if (exact) return exact.value
    if (choices.length === 0) {
      io.err.write(`No results for ${escapeForTerminal(term)}: type something else\n`)
      continue
    }
    const shown = choices.slice(0, MAX_NUMBERED)
    if (choices.length > shown.length) {
      io.err.write(
        `${choices.length} results; the first ${shown.length} (type more to narrow them):\n`,
      )
    }
    const chosen = await promptNumber(io, 'Results', shown, undefined, 'search again')
    if (chosen !== undefined) return chosen
  }
}

// The most choices a numbered list reads out; a search that matches more asks for more text.
const MAX_NUMBERED = 20

// The choices as a numbered list on stderr, answered by typing a number (the default's, when
// there is one, with Enter alone). With `orElse`, an empty answer means that: undefined.
async function promptNumber<T>(
  io: PromptIO,
  message: string,
  choices: Choice<T>[],
  preset?: number,
  orElse?: string,
): Promise<T | undefined> {
  const lines = choices.map((choice, at) => {
    const { name, description } = shownChoice(choice)
    const label = name ?? escapeForTerminal(String(choice.value))
    return `  ${at + 1}. ${label}${description ? ` (${description})` : ''}`
  })
  io.err.write(`${message}:\n${lines.join('\n')}\n`)
  const range = `a number from 1 to ${choices.length}`
  const answer = await promptText(io, {
    message: `Type ${range}${orElse ? `, or nothing to ${orElse}` : ''}`,
    default: preset === undefined ? undefined : String(preset + 1),
    required: orElse === undefined,
    validate: (value) => {
      const n = Number(value.trim())
      return (Number.isInteger(n) && n >= 1 && n <= choices.length) || range
    },
  })
  return answer.trim() === '' ? undefined : choices[Number(answer.trim()) - 1]!.value
}

export async function promptConfirm(
  io: PromptIO,
  message: string,
  defaultValue = true,
): Promise<boolean> {
  const { default: confirm } = await import('@inquirer/confirm')
  return cancellable(io, () => confirm({ message, default: defaultValue }, streams(io)))
}

// A confirmation answered no ends the command quietly, as gh does: "Cancelled" and exit 1 (what
// the command was for did not happen), nothing sent.
export async function confirmOrCancel(io: PromptIO, message: string): Promise<void> {
  if (await promptConfirm(io, message)) return
  io.err.write('Cancelled\n')
  throw new SilentError(ExitCode.failure, 'cancelled')
}

// A choice's words are often the server's (an HQ's name): shown escaped, never raw.
function shownChoice<T>(choice: Choice<T>): Choice<T> {
  return {
    ...choice,
    ...(choice.name !== undefined && { name: escapeForTerminal(choice.name) }),
    ...(choice.description !== undefined && { description: escapeForTerminal(choice.description) }),
  }
}

// A prompt keeps the terminal raw (no echo, no line editing, no Ctrl-C signal) until readline
// closes. A signal from outside (`timeout`, a CI cancel, a closed terminal) used to reach
// @inquirer's signal-exit, which re-raised it at once: the process died and left the terminal
// raw for the shell. While a prompt is open, a stop closes it as Ctrl-C would, which gives the
// terminal back, and the command ends with the signal's exit code, nothing sent.
async function cancellable<T>(io: PromptIO, ask: () => Asking<T>): Promise<T> {
  let stop: CliError | undefined
  const asking = ask()
  const stopListening = io.onStop((reason) => {
    stop = stopError(reason)
    asking.cancel()
  })
  try {
    return await asking
  } catch (error) {
    if (stop) throw stop
    if ((error as Error).name === 'ExitPromptError') throw new CancelError()
    throw error
  } finally {
    stopListening()
  }
}

function stopError(reason: StopReason): CliError {
  if (reason === 'output closed' || reason === 'output failed') {
    return new CliError('standard output closed while a prompt waited', ExitCode.failure)
  }
  return new CancelError(`${reason} while a prompt waited`, SIGNAL_EXIT_CODES[reason])
}
