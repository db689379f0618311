// The resource-shaped client: client.chambers.list(), client.members.list(id), ... Every answer
// is parsed with the shared schemas; unknown fields are kept.
import type { Dispatcher } from 'undici'
import type * as z from 'zod/mini'
import type {
  ApiVersion,
  Chamber,
  ChamberCreate,
  Event,
  ListEnvelope,
  Member,
  MemberCreate,
  TokenResponse,
} from './schemas.js'
import {
  API_VERSIONS,
  chamberSchema,
  chamberWithIncludesSchema,
  eventSchema,
  listEnvelopeSchema,
  memberSchema,
  tokenResponseSchema,
} from './schemas.js'
import { pathSegment } from './paths.js'
import { parseAnswer } from './responses.js'
import type { TokenSource } from './transport.js'
import { Transport } from './transport.js'
import { Agent } from './undici.js'

export type ClientOptions = {
  baseUrl: string
  userAgent: string
  timeoutMs?: number
  dispatcher?: Dispatcher
  tokens?: TokenSource
  trace?: (line: string) => void
  sleep?: (ms: number) => Promise<void>
  random?: () => number
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

export type Client = ReturnType<typeof createClient>

// The version is the base URL's last path segment (spec §9).
export function apiVersionOf(baseUrl: string): ApiVersion | undefined {
  let path: string
  try {
    path = new URL(baseUrl).pathname
  } catch {
    return undefined
  }
  const last = path.replace(/\/+$/, '').split('/').pop()
  return API_VERSIONS.find((version) => version === last)
}

export function createDispatcher(): Dispatcher {
  // Enough connections for the largest --concurrency of the bulk commands.
  return new Agent({ keepAliveTimeout: 10_000, connections: 64 })
}

const chamberList = listEnvelopeSchema(chamberSchema)
const memberList = listEnvelopeSchema(memberSchema)
const eventList = listEnvelopeSchema(eventSchema)

export function createClient(options: ClientOptions) {
  const dispatcher = options.dispatcher ?? createDispatcher()
  const transport = new Transport({
    baseUrl: options.baseUrl,
    dispatcher,
    userAgent: options.userAgent,
    timeoutMs: options.timeoutMs ?? 30_000,
    tokens: options.tokens,
    trace: options.trace,
    sleep: options.sleep,
    random: options.random,
  })
  const get = async <S extends z.ZodMiniType>(
    schema: S,
    path: string,
    query?: Record<string, string | number | undefined>,
  ): Promise<z.infer<S>> =>
    parseAnswer(schema, await transport.send({ method: 'GET', path, query }))
  // Never retried by the transport: a POST that may have reached the server is not sent again.
  const post = async <S extends z.ZodMiniType>(
    schema: S,
    path: string,
    body: unknown,
  ): Promise<z.infer<S>> =>
    parseAnswer(schema, await transport.send({ method: 'POST', path, body }))
  // Ids from the user and from the server alike: each stays one segment, or is refused unsent
  // (the methods that take one are async, so that a refusal is a rejection like any failure).
  const seg = (id: string) => pathSegment(id, 'chamber id')
  const page = (p: PageParams) => ({ page: p.page, per_page: p.perPage })

  return {
    baseUrl: options.baseUrl,
    version: apiVersionOf(options.baseUrl),
    transport,
    tokens: options.tokens,

    chambers: {
      list: (p: ChamberListParams = {}): Promise<ListEnvelope<Chamber>> =>
        get(chamberList, '/chambers', {
          ...page(p),
          'filter[type]': p.type,
          'filter[status]': p.status,
          sort: p.sort,
        }),
      create: (body: ChamberCreate): Promise<Chamber> => post(chamberSchema, '/chambers', body),
      get: async (id: string, opts: { include?: string[] } = {}) =>
        get(chamberWithIncludesSchema, `/chambers/${seg(id)}`, {
          include: opts.include?.length ? opts.include.join(',') : undefined,
        }),
    },

    members: {
      list: async (chamberId: string, p: MemberListParams = {}): Promise<ListEnvelope<Member>> =>
        get(memberList, `/chambers/${seg(chamberId)}/members`, {
          ...page(p),
          'filter[status]': p.status,
          sort: p.sort,
        }),
      add: async (chamberId: string, body: MemberCreate): Promise<Member> =>
        post(memberSchema, `/chambers/${seg(chamberId)}/members`, body),
    },

    events: {
      list: async (chamberId: string, p: EventListParams = {}): Promise<ListEnvelope<Event>> =>
        get(eventList, `/chambers/${seg(chamberId)}/events`, {
          ...page(p),
          'filter[status]': p.status,
          'filter[date_from]': p.from,
          'filter[date_to]': p.to,
          sort: p.sort,
        }),
    },

    async close(): Promise<void> {
      if (!options.dispatcher) await dispatcher.close()
    },
  }
}

// POST /auth/token. It creates nothing, so unlike other POSTs it may be retried.
export async function requestToken(
  transport: Transport,
  clientId: string,
  clientSecret: string,
): Promise<TokenResponse> {
  const answer = await transport.send({
    method: 'POST',
    path: '/auth/token',
    body: { client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' },
    auth: false,
    idempotent: true,
  })
  return parseAnswer(tokenResponseSchema, answer)
}
