// The API's enumerations and limits, free of zod so that commander wiring can use them without
// loading the schemas.
export const API_VERSIONS = ['v1', 'v2'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]

export const CHAMBER_TYPES = ['hq', 'subsidiary'] as const
export const RECORD_STATUSES = ['active', 'inactive', 'pending'] as const
export const EVENT_STATUSES = ['upcoming', 'past', 'canceled'] as const
export const INCLUDES = ['members', 'events'] as const

export const MAX_PER_PAGE = 100
export const DEFAULT_PER_PAGE = 20
