// Prompts on stderr (stdout stays data), through @inquirer/prompts loaded only when a prompt is
// shown. Ctrl-C at a prompt is a CancelError: exit 130, nothing sent.
import { CancelError } from '../cli/errors.js'
import type { IO } from './streams.js'

type PromptIO = Pick<IO, 'in' | 'err'>

export async function promptText(
  io: PromptIO,
  question: { message: string; default?: string; validate?: (value: string) => string | true },
): Promise<string> {
  const { input } = await import('@inquirer/prompts')
  return cancellable(() =>
    input(
      {
        message: question.message,
        default: question.default,
        validate: question.validate,
        required: true,
      },
      { input: io.in, output: io.err },
    ),
  )
}

export async function promptSecret(io: PromptIO, message: string): Promise<string> {
  const { password } = await import('@inquirer/prompts')
  return cancellable(() =>
    password(
      { message, mask: '*', validate: (value) => value !== '' || 'required' },
      { input: io.in, output: io.err },
    ),
  )
}

async function cancellable<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask()
  } catch (error) {
    if ((error as Error).name === 'ExitPromptError') throw new CancelError()
    throw error
  }
}
