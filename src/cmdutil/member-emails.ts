// The members a chamber already has, by e-mail (trimmed, any letter case): what --skip-existing
// skips, and how a row of unknown outcome is found before it is sent again. A member found is
// found whether or not the server gave it an id (then null).
import { isAnswerId } from '../api/answers.js'
import type { AnswerId } from '../api/answers.js'
import type { Client } from '../api/client.js'
import { paginate } from '../api/paginate.js'

export async function memberEmails(
  client: Client,
  chamberId: string,
): Promise<Map<string, AnswerId | null>> {
  const found = new Map<string, AnswerId | null>()
  for await (const member of paginate((p) => client.members.list(chamberId, p), { all: true })) {
    if (typeof member.email === 'string' && member.email !== '') {
      found.set(folded(member.email), isAnswerId(member.id) ? member.id : null)
    }
  }
  return found
}

// Trimmed and in one letter case, as names and e-mails are compared.
export function folded(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : ''
}
