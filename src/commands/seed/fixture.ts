// The seed fixture (contract §7): parsed, then checked whole before any request, with every
// problem reported by its path in the file. `key`, `hq` and `members` are the fixture's own
// fields; everything else of a chamber is its create body, checked with the shared schema.
import { chamberCreateSchema, formatPath, memberCreateSchema } from '../../api/schemas.js'
import type { ChamberCreate, MemberCreate } from '../../api/schemas.js'
import { emailKey } from '../../api/email.js'
import { UsageError } from '../../errors.js'
import { isPlainObject, plural } from '../../util.js'
import { readInputText } from '../../io/input-text.js'
import { checkNesting } from '../../io/nesting.js'
import { unknownName } from '../../io/suggest.js'
import type { Readable } from 'node:stream'

export type FixtureMember = { path: string; body: MemberCreate }

export type FixtureChamber = {
  key: string
  path: string
  // The key of the HQ in this file, resolved to hq_id once that HQ exists.
  hq?: string
  body: ChamberCreate
  members: FixtureMember[]
}

export type Fixture = { chambers: FixtureChamber[] }

type Problems = Record<string, string[]>

// The keys each level of the fixture may have: the fixture's own and those of the create bodies.
// An unknown one is refused, not sent: a typo (`membership`, `adress`) would otherwise reach the
// server as an extra field and the intended one would be missing. Addresses are free-form (the
// spec does not pin them down), so their keys are not checked.
const FIXTURE_KEYS = ['chambers']
const CHAMBER_KEYS = ['key', 'hq', 'members', ...Object.keys(chamberCreateSchema.shape)]
const MEMBER_KEYS = Object.keys(memberCreateSchema.shape)

function checkKeys(
  value: Record<string, unknown>,
  known: readonly string[],
  path: string,
  add: (path: string, message: string) => void,
): boolean {
  const unknown = Object.keys(value).filter((key) => !known.includes(key))
  for (const key of unknown) {
    add(path ? `${path}.${key}` : key, `is not a known key (${unknownName(key, known)})`)
  }
  return unknown.length === 0
}

export async function readFixture(source: string, stdin: Readable): Promise<Fixture> {
  const { name, text } = await readInputText(source, stdin)
  const document = await parseText(name, text)
  checkNesting(document, name)
  return checkFixture(document, name)
}

async function parseText(name: string, text: string): Promise<unknown> {
  if (/\.json$/i.test(name)) {
    try {
      return JSON.parse(text)
    } catch (error) {
      throw new UsageError(`${name} is not valid JSON: ${(error as Error).message}`)
    }
  }
  // YAML is a superset of JSON, so stdin and .yaml/.yml files go through the YAML parser.
  const { parseYaml } = await import('../../io/yaml.js')
  try {
    return parseYaml(text)
  } catch (error) {
    // The yaml package stops expanding aliases past a budget (its "billion laughs" guard).
    if (error instanceof ReferenceError && /alias/i.test(error.message)) {
      throw new UsageError(
        `${name}: too many YAML aliases expanded (a YAML "alias bomb"?): write the data out, or use fewer anchors`,
      )
    }
    if ((error as Error).name !== 'YAMLParseError') throw error
    if (/Maximum call stack/.test((error as Error).message)) {
      throw new UsageError(`${name}: nested too deeply to read`)
    }
    const first = (error as Error).message.split('\n')[0]
    throw new UsageError(`${name} is not valid YAML: ${first}`)
  }
}

function checkFixture(document: unknown, name: string): Fixture {
  const problems: Problems = {}
  const add = (path: string, message: string) => (problems[path] ??= []).push(message)
  const entries = isPlainObject(document) ? document.chambers : undefined
  if (isPlainObject(document)) checkKeys(document, FIXTURE_KEYS, '', add)
  if (!Array.isArray(entries)) {
    add('chambers', 'must be a list of chambers')
    throw new UsageError(`${name} is not a seed fixture`, problems)
  }

  // Every entry with a key takes part in the reference checks, valid or not, so that one bad
  // chamber does not make its subsidiaries report a missing key as well.
  const nodes = new Map<string, Node>()
  const chambers: FixtureChamber[] = []
  entries.forEach((entry, i) => {
    const path = `chambers[${i}]`
    if (!isPlainObject(entry)) return add(path, 'must be an object')
    const chamber = checkChamber(entry, path, add)
    if (typeof entry.key !== 'string' || entry.key.trim() === '') return
    const twin = nodes.get(entry.key)
    if (twin) return add(`${path}.key`, `duplicate key ${entry.key} (also ${twin.path})`)
    nodes.set(entry.key, {
      key: entry.key,
      path,
      hq: typeof entry.hq === 'string' ? entry.hq : undefined,
      type: entry.type,
    })
    if (chamber) chambers.push(chamber)
  })
  checkReferences([...nodes.values()], nodes, add)

  if (Object.keys(problems).length) {
    const count = Object.values(problems).flat().length
    throw new UsageError(
      `${name} has ${count} ${plural(count, 'problem')}; nothing was sent`,
      Object.fromEntries(Object.entries(problems).sort(([a], [b]) => byPath.compare(a, b))),
    )
  }
  return { chambers }
}

function checkChamber(
  entry: Record<string, unknown>,
  path: string,
  add: (path: string, message: string) => void,
): FixtureChamber | undefined {
  const { key, hq, members = [], ...body } = entry
  let valid = checkKeys(entry, CHAMBER_KEYS, path, add)
  const fail = (field: string, message: string) => {
    add(`${path}.${field}`, message)
    valid = false
  }
  if (key === undefined || (typeof key === 'string' && key.trim() === '')) {
    fail('key', 'is required: a name for this chamber in the file')
  } else if (typeof key !== 'string') fail('key', 'must be a string (quote it in YAML)')
  if (hq !== undefined && (typeof hq !== 'string' || hq === ''))
    fail('hq', 'must be a key in this file')
  if (hq !== undefined && body.hq_id !== undefined) fail('hq', 'give hq or hq_id, not both')
  // A subsidiary that names its HQ by key gets the hq_id once that HQ exists.
  const parsed = chamberCreateSchema.safeParse(
    typeof hq === 'string' && body.type === 'subsidiary' ? { ...body, hq_id: `key:${hq}` } : body,
  )
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.length ? formatPath(issue.path) : ''
      const message =
        field === 'hq_id' && body.type === 'subsidiary' && issue.message.startsWith('is required')
          ? 'a subsidiary needs hq (a key in this file) or hq_id (an existing chamber)'
          : issue.message
      fail(field === 'hq_id' && hq !== undefined ? 'hq' : field || 'body', message)
    }
  }
  if (hq !== undefined && body.type === 'hq') fail('hq', 'an hq has no hq')

  const fixtureMembers: FixtureMember[] = []
  if (!Array.isArray(members)) fail('members', 'must be a list')
  else {
    const emails = new Map<string, string>()
    members.forEach((member, j) => {
      const memberPath = `${path}.members[${j}]`
      if (isPlainObject(member) && !checkKeys(member, MEMBER_KEYS, memberPath, add)) valid = false
      const result = memberCreateSchema.safeParse(member)
      if (!result.success) {
        for (const issue of result.error.issues) {
          add(
            issue.path.length ? `${memberPath}.${formatPath(issue.path)}` : memberPath,
            issue.message,
          )
        }
        valid = false
        return
      }
      const email = emailKey(result.data.email)
      const twin = emails.get(email)
      if (twin)
        return fail(`members[${j}].email`, `duplicate e-mail in this chamber (also ${twin})`)
      emails.set(email, memberPath)
      fixtureMembers.push({ path: memberPath, body: result.data })
    })
  }
  if (!valid || !parsed.success) return undefined
  const { hq_id, ...rest } = parsed.data
  return {
    key: key as string,
    path,
    hq: typeof hq === 'string' ? hq : undefined,
    body: typeof hq === 'string' ? rest : { ...rest, hq_id },
    members: fixtureMembers,
  }
}

type Node = { key: string; path: string; hq?: string; type: unknown }

// Every `hq` names a chamber of this file that is an hq; references never go round in a cycle.
function checkReferences(
  nodes: Node[],
  byKey: Map<string, Node>,
  add: (path: string, message: string) => void,
): void {
  for (const node of nodes) {
    if (node.hq === undefined) continue
    const cycle = cycleFrom(node, byKey)
    if (cycle) {
      add(`${node.path}.hq`, `cycle: ${cycle.join(' → ')}`)
      continue
    }
    const hq = byKey.get(node.hq)
    if (!hq) add(`${node.path}.hq`, `no chamber with key ${node.hq} in this file`)
    else if (hq.type !== 'hq') add(`${node.path}.hq`, `${node.hq} is not an hq`)
  }
}

function cycleFrom(start: Node, byKey: Map<string, Node>): string[] | undefined {
  const seen = [start.key]
  for (let next = byKey.get(start.hq!); next; next = next.hq ? byKey.get(next.hq) : undefined) {
    seen.push(next.key)
    if (next.key === start.key) return seen
    // A loop that does not come back to `start` is reported from its own members.
    if (seen.indexOf(next.key) < seen.length - 1) return undefined
  }
  return undefined
}

// chambers[2] before chambers[10], in the order of the file.
const byPath = new Intl.Collator('en', { numeric: true })
