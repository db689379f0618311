// JSON.parse on Node 20 says what went wrong but seldom where. This scanner runs only after a
// failed parse, so that a user with a 10,000-line file is told the line and column to fix.
// It builds no values and keeps an explicit stack, so deep nesting cannot overflow it.
export type JsonSyntaxProblem = { line: number; column: number; reason: string }

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const ESCAPES = new Set(['"', '\\', '/', 'b', 'f', 'n', 'r', 't'])
const HEX4 = /^[0-9a-fA-F]{4}$/

class Failure {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {}
}

export function findJsonSyntaxError(text: string): JsonSyntaxProblem | undefined {
  const failure = scan(text)
  if (!failure) return undefined
  const before = text.slice(0, failure.offset)
  const line = before.split('\n').length
  const column = failure.offset - before.lastIndexOf('\n')
  return { line, column, reason: failure.reason }
}

function describe(char: string | undefined): string {
  if (char === undefined) return 'end of input'
  if (char === '\n' || char === '\r') return 'line break'
  return `'${char}'`
}

function scan(text: string): Failure | undefined {
  const stack: string[] = []
  let pos = 0
  let state: 'value' | 'key' | 'after' = 'value'
  let afterComma = false

  const skipSpace = (): void => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos] as string)) pos++
  }

  const scanString = (): Failure | undefined => {
    const start = pos
    pos++
    for (;;) {
      const char = text[pos]
      if (char === undefined) return new Failure(start, 'string is never closed')
      if (char === '"') {
        pos++
        return undefined
      }
      if (char === '\\') {
        const next = text[pos + 1]
        if (next === 'u') {
          if (!HEX4.test(text.slice(pos + 2, pos + 6))) {
            return new Failure(pos, 'invalid \\u escape in a string')
          }
          pos += 6
        } else if (next !== undefined && ESCAPES.has(next)) {
          pos += 2
        } else {
          return new Failure(pos, `invalid escape ${describe(next)} in a string`)
        }
        continue
      }
      if (char < ' ') {
        const what = char === '\n' || char === '\r' ? 'line break' : 'control character'
        return new Failure(pos, `${what} inside a string (write it as an escape)`)
      }
      pos++
    }
  }

  for (;;) {
    skipSpace()
    const char = text[pos]
    if (state === 'key') {
      if (char === '}' && afterComma) return new Failure(pos, "trailing comma before '}'")
      if (char !== '"') {
        return new Failure(
          pos,
          `expected a property name in double quotes, found ${describe(char)}`,
        )
      }
      const failure = scanString()
      if (failure) return failure
      skipSpace()
      if (text[pos] !== ':') {
        return new Failure(
          pos,
          `expected ':' after the property name, found ${describe(text[pos])}`,
        )
      }
      pos++
      state = 'value'
      afterComma = false
      continue
    }
    if (state === 'value') {
      if (char === '{' || char === '[') {
        pos++
        skipSpace()
        const close = char === '{' ? '}' : ']'
        if (text[pos] === close) {
          pos++
          state = 'after'
        } else {
          stack.push(char)
          state = char === '{' ? 'key' : 'value'
        }
        afterComma = false
        continue
      }
      if (char === ']' && afterComma) return new Failure(pos, "trailing comma before ']'")
      afterComma = false
      if (char === '"') {
        const failure = scanString()
        if (failure) return failure
      } else if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) {
        NUMBER.lastIndex = pos
        if (!NUMBER.test(text)) return new Failure(pos, 'invalid number')
        pos = NUMBER.lastIndex
      } else if (text.startsWith('true', pos) || text.startsWith('null', pos)) {
        pos += 4
      } else if (text.startsWith('false', pos)) {
        pos += 5
      } else if (char === "'") {
        return new Failure(pos, 'strings need double quotes, not single quotes')
      } else {
        return new Failure(pos, `unexpected ${describe(char)}, expected a value`)
      }
      state = 'after'
      continue
    }
    // state === 'after': a value is complete
    const open = stack.at(-1)
    if (open === undefined) {
      if (char === undefined) return undefined
      return new Failure(pos, `unexpected ${describe(char)} after the end of the JSON value`)
    }
    const close = open === '{' ? '}' : ']'
    if (char === ',') {
      pos++
      state = open === '{' ? 'key' : 'value'
      afterComma = true
    } else if (char === close) {
      pos++
      stack.pop()
    } else {
      return new Failure(pos, `expected ',' or '${close}', found ${describe(char)}`)
    }
  }
}
