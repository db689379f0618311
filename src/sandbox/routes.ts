// The API's routes. Everything here is the spec's behaviour plus the choices the sandbox's manual
// (src/commands/sandbox/manual.md) documents for what the spec leaves open.
import type { IncomingMessage } from 'node:http'
import * as z from 'zod/mini'
import {
  CHAMBER_TYPES,
  DEFAULT_PER_PAGE,
  EVENT_STATUSES,
  RECORD_STATUSES,
  chamberCreateAnyAddressSchema,
  chamberCreateSchema,
  memberCreateSchema,
  toFieldErrors,
} from '../api/schemas.js'
import type { ApiVersion, FieldErrors, ListEnvelope } from '../api/schemas.js'
import {
  dateBounds,
  includeSchema,
  isoDateSchema,
  pageParamsSchema,
  sortParamSchema,
} from '../api/params.js'
import type { SortableResource } from '../api/resources/index.js'
import type { TokenIssuer } from './auth.js'
import { HttpError, notFound, readJsonBody, validationError } from './http.js'
import { DuplicateEmailError } from './store.js'
import type { ChamberRow, Found, PageRequest, Store, StoredChamber } from './store.js'
import type { StoredEvent, StoredMember } from './store.js'

export type RouteContext = {
  version: ApiVersion
  segments: string[]
  query: URLSearchParams
  req: IncomingMessage
  store: Store
  tokens: TokenIssuer
  now: () => number
  // --strict: refuse what the spec leaves open instead of ignoring it (lenient, below).
  strict: boolean
  // Says what was ignored: a Warning header on the answer and a line in the log.
  warn: (text: string) => void
}

export type Answer = { status: number; body: unknown; headers?: Record<string, string> }

type Handler = (ctx: RouteContext) => Promise<Answer> | Answer

type Route = {
  pattern: string[]
  versions: readonly ApiVersion[]
  methods: Partial<Record<string, Handler>>
  // v1 has the route but not this method: answered 405 naming what v2 adds.
  v2OnlyMethods?: string[]
}

const ROUTES: Route[] = [
  { pattern: ['auth', 'token'], versions: ['v1', 'v2'], methods: { POST: issueToken } },
  {
    pattern: ['chambers'],
    versions: ['v1', 'v2'],
    methods: { GET: listChambers, POST: createChamber },
    v2OnlyMethods: ['POST'],
  },
  { pattern: ['chambers', ':id'], versions: ['v1', 'v2'], methods: { GET: getChamber } },
  {
    pattern: ['chambers', ':id', 'members'],
    versions: ['v1', 'v2'],
    methods: { GET: listMembers, POST: addMember },
    v2OnlyMethods: ['POST'],
  },
  // Not in the spec: lets the Location of a created member point at something real.
  {
    pattern: ['chambers', ':id', 'members', ':member'],
    versions: ['v2'],
    methods: { GET: getMember },
  },
  { pattern: ['chambers', ':id', 'events'], versions: ['v2'], methods: { GET: listEvents } },
]

export function route(ctx: RouteContext, method: string): Handler {
  const found = ROUTES.find((r) => matches(r.pattern, ctx.segments))
  if (!found) throw notFound(`no such route: /${ctx.version}/${ctx.segments.join('/')}`)
  if (!found.versions.includes(ctx.version)) {
    throw notFound(
      `/${found.pattern.join('/')} is not part of ${ctx.version}; it is available in ${found.versions.join(', ')}`,
    )
  }
  const lookup = method === 'HEAD' ? 'GET' : method
  const v2Only = ctx.version === 'v1' && found.v2OnlyMethods?.includes(lookup)
  const handler = found.methods[lookup]
  if (!handler || v2Only) {
    const allowed = Object.keys(found.methods).filter(
      (m) => ctx.version !== 'v1' || !found.v2OnlyMethods?.includes(m),
    )
    throw new HttpError(
      405,
      {
        error: v2Only
          ? `${method} /${found.pattern.join('/')} is not available in v1; it is available in v2`
          : `${method} is not allowed here`,
      },
      { allow: allowed.join(', ') },
    )
  }
  return handler
}

export function isTokenRoute(segments: string[]): boolean {
  return matches(ROUTES[0]!.pattern, segments)
}

function matches(pattern: string[], segments: string[]): boolean {
  return (
    pattern.length === segments.length &&
    pattern.every((part, i) => part.startsWith(':') || part === segments[i])
  )
}

async function issueToken(ctx: RouteContext): Promise<Answer> {
  const token = await ctx.tokens.issue(ctx.req, ctx.version)
  return { status: 200, body: token, headers: { 'cache-control': 'no-store' } }
}

// -- lists ---------------------------------------------------------------------------------------

const enumFilter = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `must be one of: ${values.join(', ')}` })

type Filters = Record<string, z.ZodMiniType>

const CHAMBER_FILTERS: Filters = {
  type: enumFilter(CHAMBER_TYPES),
  status: enumFilter(RECORD_STATUSES),
}
const MEMBER_FILTERS: Filters = { status: enumFilter(RECORD_STATUSES) }
const EVENT_FILTERS: Filters = {
  status: enumFilter(EVENT_STATUSES),
  date_from: isoDateSchema,
  date_to: isoDateSchema,
}

type ListQuery = PageRequest & { filters: Record<string, string> }

const V2_ONLY = 'is not supported by v1; it is available in v2'

// Where the spec is silent, the sandbox takes what an independent implementation takes and says
// what it ignored; --strict refuses it instead. Each case is in the sandbox's manual, in a table.
function lenient(ctx: RouteContext, refuse: () => void, ignored: string): void {
  if (ctx.strict) refuse()
  else ctx.warn(ignored)
}

function parseListQuery(
  ctx: RouteContext,
  resource: SortableResource,
  filterSpec: Filters,
): ListQuery {
  const fields: FieldErrors = {}
  const add = (field: string, message: string) => (fields[field] ??= []).push(message)

  const paging = pageParamsSchema.safeParse({
    page: ctx.query.get('page') ?? undefined,
    per_page: ctx.query.get('per_page') ?? undefined,
  })
  if (!paging.success) Object.assign(fields, toFieldErrors(paging.error))

  const filters: Record<string, string> = {}
  let sort: PageRequest['sort']
  for (const [key, value] of ctx.query) {
    const filter = /^filter\[(.*)\]$/.exec(key)?.[1]
    if (filter === undefined && key !== 'sort') continue
    if (ctx.version === 'v1') {
      lenient(
        ctx,
        () => add(key, V2_ONLY),
        `${key} ignored: v1 has no ${filter ? 'filters' : 'sort'}`,
      )
      continue
    }
    if (key === 'sort') {
      const parsed = sortParamSchema(resource).safeParse(value)
      const descending = value.startsWith('-')
      if (parsed.success) sort = { field: descending ? value.slice(1) : value, descending }
      else add('sort', parsed.error.issues[0]!.message)
      continue
    }
    const spec = filterSpec[filter!]
    if (!spec) {
      const known = Object.keys(filterSpec).join(', ')
      lenient(
        ctx,
        () => add(key, `unknown filter; filters here: ${known}`),
        `${key} ignored: no such filter here (filters: ${known})`,
      )
      continue
    }
    const parsed = spec.safeParse(value)
    if (parsed.success) filters[filter!] = value
    else add(key, parsed.error.issues[0]!.message)
  }
  if (Object.keys(fields).length) throw validationError('invalid query parameters', fields)
  return {
    page: paging.data?.page ?? 1,
    perPage: paging.data?.per_page ?? DEFAULT_PER_PAGE,
    filters,
    sort,
  }
}

// Sorted the way Intl.Collator('en', { sensitivity: 'base', numeric: true }) compares, ties in
// creation order: the store keeps a sort key for that (sort-key.ts).
function envelope<T>({ records, total }: Found<T>, query: ListQuery): ListEnvelope<T> {
  return { data: records, meta: { current_page: query.page, per_page: query.perPage, total } }
}

function requireChamber(ctx: RouteContext): ChamberRow {
  const id = ctx.segments[1]!
  const chamber = ctx.store.getChamber(id)
  if (!chamber) throw notFound(`chamber ${id} not found`)
  return chamber
}

function listChambers(ctx: RouteContext): Answer {
  const query = parseListQuery(ctx, 'chambers', CHAMBER_FILTERS)
  const { type, status } = query.filters
  return { status: 200, body: envelope(ctx.store.listChambers({ type, status }, query), query) }
}

function listMembers(ctx: RouteContext): Answer {
  const chamber = requireChamber(ctx)
  const query = parseListQuery(ctx, 'members', MEMBER_FILTERS)
  const found = ctx.store.listMembers(chamber, query.filters.status, query)
  return { status: 200, body: envelope(found, query) }
}

function listEvents(ctx: RouteContext): Answer {
  const chamber = requireChamber(ctx)
  const query = parseListQuery(ctx, 'events', EVENT_FILTERS)
  const { status, date_from, date_to } = query.filters
  const { from, to } = dateBounds(date_from, date_to)
  if (from > to) {
    lenient(
      ctx,
      () => {
        throw validationError('invalid query parameters', {
          'filter[date_to]': ['must not be before filter[date_from]'],
        })
      },
      'filter[date_to] is before filter[date_from]: no event matches',
    )
  }
  const found = ctx.store.listEvents(chamber, { status, from, to }, query)
  return { status: 200, body: envelope(found, query) }
}

function getChamber(ctx: RouteContext): Answer {
  const chamber = requireChamber(ctx)
  const include = ctx.query.get('include')
  if (include === null) return { status: 200, body: chamber.record }
  if (ctx.version === 'v1') {
    lenient(
      ctx,
      () => {
        throw validationError('invalid query parameters', { include: [V2_ONLY] })
      },
      'include ignored: v1 has no include',
    )
    return { status: 200, body: chamber.record }
  }
  const parsed = includeSchema.safeParse(include)
  if (!parsed.success) {
    throw validationError('invalid query parameters', {
      include: [parsed.error.issues[0]!.message],
    })
  }
  const perPage = embeddedPageSize(ctx)
  const body: StoredChamber & Embedded = { ...chamber.record }
  if (parsed.data.includes('members')) {
    const { records, total } = ctx.store.listMembers(chamber, undefined, { page: 1, perPage })
    Object.assign(body, { members: records, members_total: total })
  }
  if (parsed.data.includes('events')) {
    const { records, total } = ctx.store.firstEvents(chamber, perPage)
    Object.assign(body, { events: records, events_total: total })
  }
  return { status: 200, body }
}

type Embedded = {
  members?: StoredMember[]
  members_total?: number
  events?: StoredEvent[]
  events_total?: number
}

// An embedded list is one page at most, of the default size or per_page: no answer is unbounded.
function embeddedPageSize(ctx: RouteContext): number {
  const parsed = pageParamsSchema.safeParse({ per_page: ctx.query.get('per_page') ?? undefined })
  if (!parsed.success) {
    throw validationError('invalid query parameters', toFieldErrors(parsed.error))
  }
  return parsed.data.per_page ?? DEFAULT_PER_PAGE
}

function getMember(ctx: RouteContext): Answer {
  const chamber = requireChamber(ctx)
  const id = ctx.segments[3]!
  const member = ctx.store.getMember(chamber, id)
  if (!member) throw notFound(`member ${id} not found in chamber ${chamber.record.id}`)
  return { status: 200, body: member }
}

// -- creates -------------------------------------------------------------------------------------

const SERVER_FIELDS = {
  chamber: ['id', 'created_at'],
  member: ['id', 'chamber_id', 'joined_at'],
}

async function readCreateBody<S extends z.ZodMiniType>(
  ctx: RouteContext,
  schema: S,
  serverFields: string[],
): Promise<z.infer<S>> {
  const json = await readJsonBody(ctx.req)
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    throw validationError('validation failed', { body: ['must be a JSON object'] })
  }
  const parsed = schema.safeParse(json)
  const fields = parsed.success ? {} : toFieldErrors(parsed.error)
  const given = serverFields.filter((field) => field in json)
  if (ctx.strict) for (const field of given) fields[field] = ['is assigned by the server']
  if (!parsed.success || Object.keys(fields).length)
    throw validationError('validation failed', fields)
  const body = parsed.data as Record<string, unknown>
  for (const field of given) {
    ctx.warn(`${field} ignored: assigned by the server`)
    delete body[field]
  }
  return parsed.data
}

async function createChamber(ctx: RouteContext): Promise<Answer> {
  const schema = ctx.strict ? chamberCreateSchema : chamberCreateAnyAddressSchema
  const body = await readCreateBody(ctx, schema, SERVER_FIELDS.chamber)
  const { name, type, hq_id, address, status, ...extra } = body
  // The spec requires hq_id of a subsidiary and says nothing of one on an hq: dropped.
  if (type === 'hq' && hq_id) {
    lenient(
      ctx,
      () => {
        throw validationError('validation failed', { hq_id: ['must be empty for an hq'] })
      },
      'hq_id ignored: an HQ has no HQ',
    )
  }
  if (type === 'subsidiary') {
    const hq = ctx.store.getChamber(hq_id!)?.record
    if (!hq || hq.type !== 'hq') {
      throw validationError('validation failed', {
        hq_id: [hq ? `${hq_id} is not an hq chamber` : `no chamber ${hq_id}`],
      })
    }
  }
  const chamber = ctx.store.addChamber((id) => ({
    id,
    name,
    type,
    hq_id: type === 'hq' ? null : hq_id!,
    address,
    status: status ?? 'active',
    created_at: new Date(ctx.now()).toISOString(),
    ...extra,
  }))
  return {
    status: 201,
    body: chamber,
    headers: { location: `/${ctx.version}/chambers/${encodeURIComponent(chamber.id)}` },
  }
}

async function addMember(ctx: RouteContext): Promise<Answer> {
  const chamber = requireChamber(ctx)
  const body = await readCreateBody(ctx, memberCreateSchema, SERVER_FIELDS.member)
  const { name, email, phone, membership_type, status, ...extra } = body
  let member: StoredMember
  try {
    member = ctx.store.addMember(chamber, (id) => ({
      id,
      chamber_id: chamber.record.id,
      name,
      email,
      phone: phone ?? null,
      membership_type,
      status: status ?? 'active',
      joined_at: new Date(ctx.now()).toISOString(),
      ...extra,
    }))
  } catch (error) {
    if (!(error instanceof DuplicateEmailError)) throw error
    throw validationError('validation failed', {
      email: [`${email} is already a member of ${chamber.record.id}`],
    })
  }
  const path = `/${ctx.version}/chambers/${encodeURIComponent(chamber.record.id)}/members/${encodeURIComponent(member.id)}`
  return { status: 201, body: member, headers: { location: path } }
}
