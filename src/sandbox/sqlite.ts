// node:sqlite, loaded so that Node 22's "SQLite is an experimental feature" warning stays off the
// user's screen. Only that one warning is dropped, and only while the module loads; every other
// warning is printed as usual.
import type * as Sqlite from 'node:sqlite'

let sqlite: typeof Sqlite | undefined

export function loadSqlite(): typeof Sqlite {
  if (sqlite) return sqlite
  const emitWarning = process.emitWarning
  process.emitWarning = function (warning: string | Error, ...rest: unknown[]) {
    const type = typeof rest[0] === 'string' ? rest[0] : (rest[0] as { type?: string })?.type
    const message = typeof warning === 'string' ? warning : warning.message
    if (type === 'ExperimentalWarning' && /\bSQLite\b/.test(message)) return
    return Reflect.apply(emitWarning, process, [warning, ...rest])
  } as typeof process.emitWarning
  try {
    sqlite = process.getBuiltinModule('node:sqlite') as typeof Sqlite
  } finally {
    process.emitWarning = emitWarning
  }
  return sqlite
}
