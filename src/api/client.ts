// The resource-shaped client: client.chambers.list(), client.members.list(id), ... Answers are
// read with the tolerant schemas of answers.ts: records come back as the server sent them.
import type { Dispatcher } from 'undici'
import type * as z from 'zod/mini'
import type { AnswerRecord, Page, TokenAnswer } from './answers.js'
import { answerRecord, listAnswer, pageOf, tokenAnswer } from './answers.js'
import type { ChamberCreate, MemberCreate } from './schemas.js'
import { apiVersionOf } from './base-url.js'
import { ApiError } from './errors.js'
import { pathSegment } from './paths.js'
import { parseAnswer } from './responses.js'
import type { TokenSource, WatchExchange } from './transport.js'
import { Transport } from './transport.js'
import { createHttpAgent } from './undici.js'
import type { ProxyDispatcher } from './undici.js'

export type ClientOptions = {
  baseUrl: string
  userAgent: string
  timeoutMs?: number
  dispatcher?: Dispatcher
  // The connection limit of the dispatcher made when none is given.
  connections?: number
  // How the dispatcher made when none is given reaches the server through a proxy, when the
  // environment names one (proxy-agent.ts; none: directly).
  proxy?: ProxyDispatcher
  tokens?: TokenSource
  trace?: (line: string) => void
  watch?: WatchExchange
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  now?: () => number
}

export type PageParams = { page?: number; perPage?: number }
export type ChamberListParams = PageParams & { type?: string; status?: string; sort?: string }
export type MemberListParams = PageParams & { status?: string; sort?: string }
export type EventListParams = PageParams & {
  status?: string
  from?: string
  to?: string
  sort?: string
}

// How a create is sent: `paced` by a caller that waits out a 429 itself (a bulk run), which the
// transport then hands back at once instead of waiting and sending again.
export type WriteOptions = { paced?: boolean }

export type Client = ReturnType<typeof createClient>

// The largest --concurrency of the bulk commands.
const MAX_CONNECTIONS = 64
export const DEFAULT_TIMEOUT_MS = 30_000

export function createClient(options: ClientOptions) {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const agent = options.dispatcher
    ? undefined
    : createHttpAgent({
        connections: options.connections ?? MAX_CONNECTIONS,
        connectTimeoutMs: timeoutMs,
        proxy: options.proxy,
      })
  const dispatcher = options.dispatcher ?? agent!.dispatcher
  const transport = new Transport({
    baseUrl: options.baseUrl,
    dispatcher,
    userAgent: options.userAgent,
    timeoutMs,
    tokens: options.tokens,
    trace: options.trace,
    watch: options.watch,
    sleep: options.sleep,
    random: options.random,
    now: options.now,
  })
  const get = async <S extends z.ZodMiniType>(
    schema: S,
    path: string,
    query?: Record<string, string | number | undefined>,
  ): Promise<z.infer<S>> =>
    parseAnswer(schema, await transport.send({ method: 'GET', path, query }))
  // A POST that may have reached the server is never sent again; one answered 429 (not applied)
  // is, after the wait.
  const post = async <S extends z.ZodMiniType>(
    schema: S,
    path: string,
    body: unknown,
    options: WriteOptions = {},
  ): Promise<z.infer<S>> =>
    parseAnswer(schema, await transport.send({ method: 'POST', path, body, ...options }))
  const list = async (path: string, query: Record<string, string | number | undefined>) =>
    pageOf(await get(listAnswer, path, query))
  // Ids from the user and from the server alike: each stays one segment, or is refused unsent
  // (the methods that take one are async, so that a refusal is a rejection like any failure).
  const seg = (id: string) => pathSegment(id, 'chamber id')
  const page = (p: PageParams) => ({ page: p.page, per_page: p.perPage })
  // A 404 of a path under a chamber id says one sentence, whatever the server wrote there (the
  // spec's `chamber X not found`, a framework's `No query results for model [Chamber] X`); the
  // server's own text is in the --debug trace.
  const ofChamber = async <T>(id: string, answer: () => Promise<T>): Promise<T> => {
    try {
      return await answer()
    } catch (error) {
      if (!(error instanceof ApiError) || error.code !== 'not_found') throw error
      throw new ApiError('not_found', `chamber ${id} not found (HTTP ${error.status ?? 404})`, {
        status: error.status,
        cause: error,
      })
    }
  }

  return {
    baseUrl: options.baseUrl,
    version: apiVersionOf(options.baseUrl),
    transport,
    tokens: options.tokens,

    chambers: {
      list: (p: ChamberListParams = {}): Promise<Page> =>
        list('/chambers', {
          ...page(p),
          'filter[type]': p.type,
          'filter[status]': p.status,
          sort: p.sort,
        }),
      create: (body: ChamberCreate, options?: WriteOptions): Promise<AnswerRecord> =>
        post(answerRecord, '/chambers', body, options),
      get: async (id: string, opts: { include?: string[] } = {}): Promise<AnswerRecord> =>
        ofChamber(id, () =>
          get(answerRecord, `/chambers/${seg(id)}`, {
            include: opts.include?.length ? opts.include.join(',') : undefined,
          }),
        ),
    },

    members: {
      list: async (chamberId: string, p: MemberListParams = {}): Promise<Page> =>
        ofChamber(chamberId, () =>
          list(`/chambers/${seg(chamberId)}/members`, {
            ...page(p),
            'filter[status]': p.status,
            sort: p.sort,
          }),
        ),
      add: async (
        chamberId: string,
        body: MemberCreate,
        options?: WriteOptions,
      ): Promise<AnswerRecord> =>
        ofChamber(chamberId, () =>
          post(answerRecord, `/chambers/${seg(chamberId)}/members`, body, options),
        ),
    },

    events: {
      list: async (chamberId: string, p: EventListParams = {}): Promise<Page> =>
        ofChamber(chamberId, () =>
          list(`/chambers/${seg(chamberId)}/events`, {
            ...page(p),
            'filter[status]': p.status,
            'filter[date_from]': p.from,
            'filter[date_to]': p.to,
            sort: p.sort,
          }),
        ),
    },

    // The command is done: what is still in flight was abandoned (see HttpAgent).
    async close(): Promise<void> {
      await agent?.destroy()
    },
  }
}

// POST /auth/token. It creates nothing, so unlike other POSTs it may be retried.
export async function requestToken(
  transport: Transport,
  clientId: string,
  clientSecret: string,
): Promise<TokenAnswer> {
  const answer = await transport.send({
    method: 'POST',
    path: '/auth/token',
    body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
    auth: false,
    idempotent: true,
  })
  return parseAnswer(tokenAnswer, answer)
}
