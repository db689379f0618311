// The shape of a write verb's declaration (verb.ts runs it): what one.ts, many.ts and the verbs
// share, apart so that the paths import none of each other.
import type { AnswerRecord } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import type { Creates, Descriptor } from '../../api/resources/index.js'
import type { Context } from '../context.js'
import type { BulkFlags } from './flags.js'

// What every write verb's options hold beyond its own fields.
export type CreateOptions = {
  // The chamber the records go into, for a resource created `under` one.
  parent?: string
  fromFile?: string
  dryRun?: boolean
} & Partial<BulkFlags>

export type Body = Record<string, unknown>

// Handed to a verb's prompts.
export type Prompting = {
  client: Client
  ctx: Context
  parent?: string
  // Optional values are asked only of someone who will confirm (not with --yes).
  optional: boolean
}

export type CreateVerb<B extends Body, O extends CreateOptions, A = void> = {
  // The command as messages and the journal name it: `members add`.
  command: string
  resource: Descriptor<Creates<B>> & { create: Creates<B> }
  // The body: what the flags give, over one record of the file (of every row, in a bulk run).
  body(opts: O, record: Body): Body
  // The flag that gives each required value still missing, as a usage error names them.
  missing(body: Body): (string | false)[]
  // Asks for what flags and the file left out. What it returns goes to the summary.
  ask(body: Body, prompting: Prompting): Promise<A>
  // The summary shown before the one confirmation (values escaped), and its question.
  summary(valid: B, asked: A, prompting: Prompting): Promise<{ lines: string[]; question: string }>
  // The line on stderr once the record is created.
  created(record: AnswerRecord, valid: B, parent?: string): string
}
