import * as z from 'zod/mini'
import { paginate } from '../../api/paginate.js'
import { pageOf } from '../../api/answers.js'
import { parseAnswer, parseJsonText } from '../../api/responses.js'
import { ApiError, excerpt } from '../../api/errors.js'
import type { Answer } from '../../api/responses.js'
import type { Method } from '../../api/transport.js'
import type { Exactly } from '../../cmdutil/command.js'
import type { Context } from '../../cmdutil/context.js'
import { CliError, UsageError } from '../../errors.js'
import type { JqProgram } from '../../io/jq.js'
import { writeJq, writeList } from '../../io/output.js'
import { readInputText } from '../../io/input-text.js'
import { escapeForTerminal, escapeJsonForTerminal } from '../../io/terminal-text.js'
import { dictionary, toBody, typedValue } from './fields.js'
import type { Field } from './fields.js'

export type Flags = {
  method?: string
  rawField?: [string, string][]
  field?: [string, string][]
  input?: string
  header?: string[]
  paginate?: boolean
  include?: boolean
}
export type Options = {
  method: Method
  // Under the base URL, dot segments resolved; its query apart.
  path: string
  query: Record<string, string>
  headers: Record<string, string>
  // -f: sent as typed; -F: a number, true, false, null, or @file read when the request is made.
  rawField: [string, string][]
  field: [string, string][]
  input?: string
  paginate: boolean
  include: boolean
}

const METHODS: Method[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']
// Any items: `api` prints whatever the list holds.
const anyList = z.looseObject({ data: z.array(z.unknown()), meta: z.optional(z.unknown()) })

export function toOptions<F extends Flags>(rawPath: string, flags: Exactly<F, Flags>): Options {
  checkStdinOnce(flags)
  const rawField = flags.rawField ?? []
  const field = flags.field ?? []
  const hasBody = rawField.length > 0 || field.length > 0 || flags.input !== undefined
  const method = parseMethod(flags.method, hasBody)
  const paginate = flags.paginate === true
  const include = flags.include === true
  if (paginate && method !== 'GET') throw new UsageError('--paginate works with GET only')
  if (paginate && include) {
    throw new UsageError('-i shows one answer; it cannot be combined with --paginate')
  }
  const { path, query } = splitPath(rawPath)
  const headers = parseHeaders(flags.header ?? [])
  return { method, path, query, headers, rawField, field, input: flags.input, paginate, include }
}

// A raw authenticated request, like `gh api`, with chamberctl's auth, retries and exit codes.
export async function api(opts: Options, ctx: Context): Promise<void> {
  const { io } = ctx
  const { method, path, query, headers } = opts
  const fields: Field[] = [
    ...opts.rawField.map(([key, value]) => ({ key, value })),
    ...(await Promise.all(
      opts.field.map(async ([key, raw]) => ({ key, value: await typedValue(raw, io.in) })),
    )),
  ]
  let body: unknown
  if (method === 'GET' || method === 'HEAD') {
    for (const { key, value } of fields) query[key] = value === null ? '' : String(value)
  } else if (opts.input !== undefined) {
    body = (await readInputText(opts.input, io.in)).text
  } else if (fields.length) {
    body = toBody(fields)
  }

  const client = await ctx.api()
  const exchange = { method, path, query, headers, body }
  if (opts.paginate) {
    const pages = paginate(
      async ({ page, perPage }) =>
        pageOf(
          parseAnswer(
            anyList,
            await client.transport.send({
              ...exchange,
              query: { ...query, page, per_page: perPage },
            }),
          ),
        ),
      {
        all: true,
        page: query.page ? Number(query.page) : undefined,
        perPage: numberOr(query.per_page),
      },
    )
    const { format } = ctx.globals
    await writeList(io, pages as AsyncIterable<Record<string, unknown>>, {
      // One array of every record, with -o ndjson one record a line, with -o yaml one document
      // a record (every page is walked, as with --all).
      format: format === 'ndjson' || format === 'yaml' ? format : 'json',
      documents: true,
      columns: [],
      color: false,
      jq: ctx.globals.jq,
    })
    return
  }
  const answer = await client.transport.exchange(exchange)
  if (opts.include) io.out.write(statusAndHeaders(answer, io.stdoutIsTTY))
  const ok = answer.status >= 200 && answer.status < 300
  // A failure's body is shown as it came, not filtered: the filter was written for the answer.
  if (ctx.globals.jq && ok) await filterAnswer(io, ctx.globals.jq, answer.text)
  else if (answer.text) {
    io.out.write(await render(answer.text, io.stdoutIsTTY, ctx.globals.format === 'yaml'))
  }
  if (!ok) throw client.transport.failure(exchange, answer)
}

async function filterAnswer(io: Context['io'], jq: JqProgram, text: string): Promise<void> {
  try {
    parseJsonText(text)
  } catch (error) {
    if (error instanceof ApiError) throw error
    throw new CliError(`--jq: the answer is not JSON: ${excerpt(text) || '(empty body)'}`)
  }
  await writeJq(io, jq, text)
}

// Before stdin is read: it can be read once, so a second reader (a second -F key=@-) would get
// nothing and send "" without a word; and --input with fields is refused before -F key=@- waits
// for stdin.
function checkStdinOnce(opts: Flags): void {
  if (opts.input !== undefined && (opts.field?.length || opts.rawField?.length)) {
    throw new UsageError('--input and -f/-F both give a body: use one')
  }
  const readers = (opts.field ?? []).filter(([, raw]) => raw === '@-')
  if (readers.length > 1) {
    const flags = readers.map(([key]) => `-F ${key}=@-`).join(' and ')
    throw new UsageError(
      `${flags} would each read stdin, which can be read only once: give all but one a file (@path)`,
    )
  }
}

function parseMethod(given: string | undefined, hasBody: boolean): Method {
  if (given === undefined) return hasBody ? 'POST' : 'GET'
  const method = METHODS.find((m) => m === given.toUpperCase())
  if (!method) throw new UsageError(`-X ${given}: use one of ${METHODS.join(', ')}`)
  return method
}

// The path is the user's, taken as written (percent-encoding kept, dot segments resolved) and
// always under the base URL: `..` cannot climb above it and no host can be named.
function splitPath(raw: string): { path: string; query: Record<string, string> } {
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw) || raw.startsWith('//')) {
    throw new UsageError(`api takes a path under the base URL (like /chambers), not ${raw}`)
  }
  // A URL parser silently drops tabs and line breaks: what would be sent is not what was typed.
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(raw)) {
    throw new UsageError(`api path ${JSON.stringify(raw)} contains a control character`)
  }
  const url = new URL(raw.startsWith('/') ? raw : `/${raw}`, 'http://path.invalid')
  return {
    path: url.pathname,
    query: Object.assign(dictionary(), Object.fromEntries(url.searchParams)),
  }
}

function parseHeaders(lines: string[]): Record<string, string> {
  const headers = dictionary() as Record<string, string>
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon <= 0) throw new UsageError(`-H ${line}: expected 'Name: value'`)
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return headers
}

function numberOr(value: string | undefined): number | undefined {
  return value === undefined ? undefined : Number(value)
}

function statusAndHeaders(answer: Answer, terminal: boolean): string {
  const lines = [`HTTP ${answer.status}`]
  for (const [name, value] of Object.entries(answer.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) {
      if (one === undefined) continue
      const line = `${name}: ${one}`
      lines.push(terminal ? escapeForTerminal(line) : line)
    }
  }
  return `${lines.join('\n')}\n\n`
}

// JSON is pretty on a terminal and compact in a pipe, or with -o yaml one YAML document; anything
// else is printed as it came, and on a terminal with its control characters escaped (its lines
// and tabs kept).
async function render(text: string, terminal: boolean, yaml: boolean): Promise<string> {
  let value: unknown
  try {
    value = parseJsonText(text)
  } catch {
    const shown = terminal ? escapeForTerminal(text, '\n\t') : text
    return shown.endsWith('\n') ? shown : `${shown}\n`
  }
  if (yaml) return (await import('../../io/yaml-output.js')).yamlText(value, terminal)
  const json = JSON.stringify(value, null, terminal ? 2 : undefined)
  return `${terminal ? escapeJsonForTerminal(json) : json}\n`
}
