// `auth status` in tsv, csv and with --fields: one row per profile (contract §3). A terminal gets
// the command's own view, a block of lines per profile.
import type { Descriptor } from './descriptor.js'
import { id, time, whole } from './kinds.js'

export const profiles = {
  name: 'profiles',
  fields: {
    profile: id(10),
    active: whole(6),
    base_url: whole(28),
    api_version: whole(2),
    client_id: whole(14),
    secret_storage: whole('config_file'.length),
    token_valid: whole(5),
    expires_at: time,
  },
  columns: [
    'profile',
    'active',
    'base_url',
    'api_version',
    'client_id',
    'secret_storage',
    'token_valid',
    'expires_at',
  ],
} as const satisfies Descriptor
