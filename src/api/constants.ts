// The API's enumerations and limits, free of zod so that commander wiring can use them without
// loading the schemas.
export const API_VERSIONS = ['v1', 'v2'] as const
export type ApiVersion = (typeof API_VERSIONS)[number]

export const CHAMBER_TYPES = ['hq', 'subsidiary'] as const
export const RECORD_STATUSES = ['active', 'inactive', 'pending'] as const
export const EVENT_STATUSES = ['upcoming', 'past', 'canceled'] as const
export const INCLUDES = ['members', 'events'] as const

// Sort fields: the ones the spec names come first; the rest are sandbox extensions
// (ARCHITECTURE.md).
export const SORT_FIELDS = {
  chambers: ['name', 'created_at', 'id', 'type', 'status'],
  members: ['name', 'joined_at', 'id', 'email', 'membership_type', 'status'],
  events: ['starts_at', 'ends_at', 'title', 'id', 'status'],
} as const
export type SortableResource = keyof typeof SORT_FIELDS

export const MAX_PER_PAGE = 100
export const DEFAULT_PER_PAGE = 20
