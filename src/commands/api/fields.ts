// -f/-F fields of `api`, as `gh api` has them: for a GET they become query parameters as written;
// otherwise a JSON body where `a[b]=c` nests and `a[]=c` appends.
import type { Readable } from 'node:stream'
import { UsageError } from '../../errors.js'
import { readInputText } from '../../io/input-text.js'

export type Field = { key: string; value: unknown }

export async function typedValue(raw: string, stdin: Readable): Promise<unknown> {
  // A file's contents as they are, like `gh api -F key=@file`.
  if (raw.startsWith('@')) return (await readInputText(raw.slice(1), stdin)).text
  if (raw === 'true') return true
  if (raw === 'false') return false
  if (raw === 'null') return null
  if (/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(raw)) return Number(raw)
  return raw
}

// Objects without a prototype: `__proto__`, `constructor` and `prototype` are keys like any other,
// sent as written (as gh api sends them), never a way to reach or change Object.prototype.
export function dictionary(): Record<string, unknown> {
  return Object.create(null) as Record<string, unknown>
}

export function toBody(fields: Field[]): Record<string, unknown> {
  const body = dictionary()
  for (const { key, value } of fields) assign(body, parseKey(key), value, key)
  return body
}

type Container = Record<string, unknown> | unknown[]

function assign(container: Container, parts: string[], value: unknown, key: string): void {
  const [part, ...rest] = parts as [string, ...string[]]
  if (rest.length === 0) {
    if (Array.isArray(container)) container.push(value)
    else container[part] = value
    return
  }
  const fresh = () => (rest[0] === '' ? [] : dictionary())
  let child: unknown
  if (Array.isArray(container)) container.push((child = fresh()))
  else {
    child = container[part] ??= fresh()
    if (typeof child !== 'object' || child === null) {
      throw new UsageError(`field ${key}: ${part} already holds a value, not an object or list`)
    }
  }
  assign(child as Container, rest, value, key)
}

function parseKey(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key)
  if (!match) throw new UsageError(`field key ${key}: expected name, name[key] or name[]`)
  const parts = [...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)
  return [match[1]!, ...parts]
}
