// What a bulk run asks the server before it sends: that the chamber it writes into exists, and
// which members a chamber already has, by e-mail (compared as emailKey compares them, as the
// sandbox does: any case, Unicode NFC, an internationalised domain as its A-label): what
// --skip-existing skips, how a record an earlier run created is confirmed, and how one of
// unknown outcome is found before it is sent again. One list of a chamber's members serves every
// row of it, however many.
import { isAnswerId } from '../../api/answers.js'
import { emailKey } from '../../api/email.js'
import type { AnswerId } from '../../api/answers.js'
import type { Client } from '../../api/client.js'
import { ApiError } from '../../api/errors.js'
import { paginate } from '../../api/paginate.js'

// Before the first row: a chamber that is not there fails the run (exit 3) with nothing sent.
// `what` names the reference in the input (`chambers[2].hq_id`), when it came from one.
export async function requireChamber(client: Client, chamberId: string, what?: string) {
  try {
    await client.chambers.get(chamberId)
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error
    throw new ApiError(
      'not_found',
      `${what ? `${what}: ` : ''}chamber ${chamberId} not found at ${client.baseUrl}; nothing was sent`,
      { status: error.status },
    )
  }
}

export class MemberIndex {
  private readonly chambers = new Map<string, Promise<Map<string, AnswerId | null>>>()

  constructor(private readonly client: Client) {}

  // The member of the chamber with this e-mail: its id (null when the server gave none), or
  // undefined when there is none.
  async find(chamberId: string, email: unknown): Promise<AnswerId | null | undefined> {
    let emails = this.chambers.get(chamberId)
    if (!emails) {
      emails = memberEmails(this.client, chamberId)
      this.chambers.set(chamberId, emails)
    }
    return (await emails).get(typeof email === 'string' ? emailKey(email) : '')
  }
}

async function memberEmails(
  client: Client,
  chamberId: string,
): Promise<Map<string, AnswerId | null>> {
  const found = new Map<string, AnswerId | null>()
  for await (const member of paginate((p) => client.members.list(chamberId, p), { all: true })) {
    if (typeof member.email === 'string' && member.email !== '') {
      found.set(emailKey(member.email), isAnswerId(member.id) ? member.id : null)
    }
  }
  return found
}

// Trimmed and in one letter case, as names are compared.
export function folded(value: unknown): string {
  return typeof value === 'string' ? value.trim().toLowerCase() : ''
}
