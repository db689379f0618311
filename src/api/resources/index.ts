// The resources of the API, by the name users give them (`chamberctl fields members`).
import { chambers } from './chambers.js'
import { events } from './events.js'
import { members } from './members.js'

export { chambers, events, members }
export { checkFields, columnsOf, fieldNames } from './descriptor.js'
export type { Creates, CreateSchema, Descriptor } from './descriptor.js'

export const RESOURCES = { chambers, members, events } as const
export type Resource = keyof typeof RESOURCES
export const RESOURCE_NAMES = Object.keys(RESOURCES) as Resource[]

export const SORT_FIELDS = {
  chambers: chambers.sort,
  members: members.sort,
  events: events.sort,
} as const
export type SortableResource = keyof typeof SORT_FIELDS
