// Prompts on stderr (stdout stays data), through @inquirer's single prompt packages and a search
// prompt of our own on @inquirer/core (search-prompt.ts), each loaded only when it is shown. Not
// the umbrella @inquirer/prompts: its index imports every prompt, the editor's iconv-lite
// included, so a bundle put them all in the chunk each prompt loads (607 KB); the packages on
// their own share only @inquirer/core. Ctrl-C at a prompt is a CancelError: exit 130, nothing sent.
import { Writable } from 'node:stream'
import { CancelError } from '../errors.js'
import type { IO } from './streams.js'
import { escapeForTerminal } from './terminal-text.js'

type PromptIO = Pick<IO, 'in' | 'err'>
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
  return cancellable(() =>
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
  return cancellable(() =>
    password({ message, mask: '*', validate: (value) => value !== '' || 'required' }, streams(io)),
  )
}

export async function promptSelect<T>(
  io: PromptIO,
  question: { message: string; choices: Choice<T>[]; default?: T },
): Promise<T> {
  const { default: select } = await import('@inquirer/select')
  return cancellable(() =>
    select({ ...question, choices: question.choices.map(shownChoice) }, streams(io)),
  )
}

// A list filtered as the user types; `source` may offer the typed text itself as a choice. Enter
// answers with the choice highlighted in the list shown for the text typed, however fast it came.
export async function promptSearch(
  io: PromptIO,
  question: { message: string; source: (term: string) => Choice<string>[] },
): Promise<string> {
  const { default: search } = await import('./search-prompt.js')
  // A choice without a name shows its value, which may be the server's too.
  const source = (term: string) =>
    question
      .source(term)
      .map((choice) => shownChoice({ ...choice, name: choice.name ?? choice.value }))
  return cancellable(() => search({ message: question.message, source }, streams(io)))
}

export async function promptConfirm(
  io: PromptIO,
  message: string,
  defaultValue = true,
): Promise<boolean> {
  const { default: confirm } = await import('@inquirer/confirm')
  return cancellable(() => confirm({ message, default: defaultValue }, streams(io)))
}

// A choice's words are often the server's (an HQ's name): shown escaped, never raw.
function shownChoice<T>(choice: Choice<T>): Choice<T> {
  return {
    ...choice,
    ...(choice.name !== undefined && { name: escapeForTerminal(choice.name) }),
    ...(choice.description !== undefined && { description: escapeForTerminal(choice.description) }),
  }
}

async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask()
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new CancelError()
    throw error
  }
}
