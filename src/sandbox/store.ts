// The sandbox's records in SQLite (node:sqlite): in memory, or in the `--data` file, which several
// processes may use at once. Each record is kept as its JSON text, as it was created, beside the
// columns its filters and sorts need: every sortable value as a sort key (sort-key.ts), so that a
// page of a million members is one indexed query. Writes are single transactions in WAL mode.
import { closeSync, openSync } from 'node:fs'
import type { DatabaseSync, SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite'
import { instantOf } from '../api/params.js'
import { emailKey } from '../api/email.js'
import { SORT_FIELDS } from '../api/resources/index.js'
import type { SortableResource } from '../api/resources/index.js'
import { DataFileError } from './data-file.js'
import type { Dataset, StoredChamber, StoredEvent, StoredMember } from './data-file.js'
import type { Grant, Grants } from './auth.js'
import { sortKey } from './sort-key.js'
import { loadSqlite } from './sqlite.js'

export { DataFileError }
export type { Dataset, StoredChamber, StoredEvent, StoredMember }

const FORMAT = 'chamberctl-sandbox/2'
// How long a write waits for another process's write to finish.
const BUSY_TIMEOUT_MS = 30_000

// Page cache sizes in KiB, negated as PRAGMA cache_size takes them: enough for the upper levels of
// every index of a million members, and a large one while a fill builds its indexes.
const CACHE_KIB = -16 * 1024
const FILL_CACHE_KIB = -256 * 1024

const ID_PREFIX = { chamber: 'ch_', member: 'mb_', event: 'ev_' } as const
type Kind = keyof typeof ID_PREFIX
const TABLE = { chamber: 'chambers', member: 'members', event: 'events' } as const

const key = (field: string) => `k_${field}`
const keyColumns = (resource: SortableResource) =>
  SORT_FIELDS[resource].map((field) => `${key(field)} TEXT NOT NULL`).join(', ')

// Members get an index for every sort field, alone and after the status filter; chambers and
// events, which no API call adds in bulk, for their filters and the spec's sort fields.
const MEMBER_INDEXES = SORT_FIELDS.members.flatMap((field) => [
  `CREATE INDEX members_by_${field} ON members (chamber, ${key(field)})`,
  ...(field === 'status'
    ? []
    : [`CREATE INDEX members_by_status_${field} ON members (chamber, status, ${key(field)})`]),
])

// Tables first, indexes after the first records: building an index once is far cheaper than
// updating it row by row.
const TABLES = [
  `CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID`,
  // The next number of each kind of id; kept above every id of that form the database holds.
  `CREATE TABLE counters (kind TEXT PRIMARY KEY, next INTEGER NOT NULL) WITHOUT ROWID`,
  `CREATE TABLE chambers (seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE,
    type TEXT, status TEXT, ${keyColumns('chambers')}, body TEXT NOT NULL)`,
  `CREATE TABLE members (seq INTEGER PRIMARY KEY, chamber INTEGER NOT NULL,
    id TEXT NOT NULL, status TEXT, email TEXT NOT NULL, ${keyColumns('members')},
    body TEXT NOT NULL)`,
  // `email` holds the address's key (emailKey: any case, NFC, A-label domain): one member of an
  // address per chamber, however it is written. The body keeps the address as it was sent.
  `CREATE UNIQUE INDEX members_email ON members (chamber, email)`,
  // A list's total without counting a million index entries; kept by the trigger.
  `CREATE TABLE member_counts (chamber INTEGER NOT NULL, status TEXT NOT NULL,
    n INTEGER NOT NULL, PRIMARY KEY (chamber, status)) WITHOUT ROWID`,
  `CREATE TRIGGER members_counted AFTER INSERT ON members BEGIN
    INSERT INTO member_counts VALUES (new.chamber, coalesce(new.status, ''), 1)
    ON CONFLICT DO UPDATE SET n = n + 1; END`,
  `CREATE TABLE events (seq INTEGER PRIMARY KEY, chamber INTEGER NOT NULL,
    id TEXT NOT NULL, status TEXT, starts REAL, ends REAL, ${keyColumns('events')},
    body TEXT NOT NULL)`,
]

// Issued tokens, by digest (auth.ts); added to databases of earlier versions when opened.
const TOKENS = `CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, version TEXT NOT NULL,
  expires REAL NOT NULL) WITHOUT ROWID`

const INDEXES = [
  `CREATE INDEX chambers_by_name ON chambers (${key('name')})`,
  `CREATE INDEX chambers_by_created ON chambers (${key('created_at')})`,
  `CREATE INDEX chambers_by_type ON chambers (type, status, ${key('name')})`,
  `CREATE INDEX chambers_by_status ON chambers (status, ${key('name')})`,
  `CREATE INDEX members_of ON members (chamber)`,
  `CREATE INDEX members_of_status ON members (chamber, status)`,
  ...MEMBER_INDEXES,
  `CREATE INDEX events_of ON events (chamber)`,
  `CREATE INDEX events_by_date ON events (chamber, starts, ends)`,
  `CREATE INDEX events_by_status ON events (chamber, status, starts, ends)`,
]

export type Sort = { field: string; descending: boolean }
export type PageRequest = { page: number; perPage: number; sort?: Sort }
export type Found<T> = { records: T[]; total: number }
// A chamber and the row number that its members and events refer to.
export type ChamberRow = { seq: number; record: StoredChamber }
export type EventWindow = { status?: string; from: number; to: number }
// The i-th member of a chamber, the sandbox's n-th (addMembers).
export type MakeMember = (chamber: ChamberRow, i: number, n: number) => StoredMember

export type OpenOptions = {
  // The database file; in memory without one.
  path?: string
  // The records of a new database.
  initial: () => Dataset
}

export class DuplicateEmailError extends Error {}

// Where the page after one just served begins: the last record's sort key and row number.
type Resume = { key: SQLInputValue; seq: number }
// Resume points kept: one per list being walked is all a client's --all needs.
const RESUMES_KEPT = 64
// A page asked for out of turn deep into a list is counted from the nearest mark before it: the
// position of every MARK_EVERY-th record, noted by earlier counts of the same list.
const MARK_EVERY = 1000
// A noted record and its place in the list (1 for the first record).
type Mark = Resume & { at: number }
// The marks of one list, as they stand when the table's newest record was `seen`.
type Marks = { marks: Mark[]; seen: number }
// What a transaction writes: records anyhow, only new records (which leave marks valid once
// moved past them), or no records (tokens).
type Writes = 'records' | 'inserts' | 'none'

export class Store implements Grants {
  private readonly statements = new Map<string, StatementSync>()
  // A list walked page by page seeks to where the last page ended instead of counting past
  // every record before it (OFFSET), so that page 10,000 of a million members takes the time of
  // page 1. A point holds only while nothing was written: its key has the write counts of this
  // process and of every other one (PRAGMA data_version).
  private readonly resumes = new Map<string, Resume>()
  // By list (listKey with no page size, counting only writes other than inserts): marks of
  // records MARK_EVERY apart when noted. An insert moves the marks after the new record one
  // place down (markUpTo, when next used); any other write ends them.
  private readonly marks = new Map<string, Marks>()
  private writes = 0
  private edits = 0
  private open = true

  private constructor(
    private readonly db: DatabaseSync,
    private readonly location: string,
  ) {}

  static open({ path, initial }: OpenOptions): Store {
    if (path === undefined) return Store.create(':memory:', initial)
    createPrivateFile(path)
    return Store.create(path, initial)
  }

  private static create(location: string, initial: () => Dataset): Store {
    const { DatabaseSync } = loadSqlite()
    const db = new DatabaseSync(location)
    try {
      db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}; PRAGMA cache_size = ${CACHE_KIB}`)
      const store = new Store(db, location)
      // Before anything is written: another program's database is left as it was.
      store.checkFormat()
      // WAL: readers never wait for a writer. NORMAL: a commit is in the file before it returns,
      // so a killed process loses nothing; only an OS crash can lose the last commits.
      db.exec('PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL')
      return store.initialize(initial)
    } catch (error) {
      db.close()
      if ((error as { errcode?: number }).errcode === SQLITE_NOTADB) {
        throw new DataFileError(`${location} is not a SQLite database`)
      }
      throw error
    }
  }

  // A database without tables is new; one with tables must be a sandbox's.
  private checkFormat(): boolean {
    const tables = this.db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table'`).all()
    if (tables.length === 0) return false
    const format = tables.some((table) => table.name === 'meta')
      ? this.db.prepare(`SELECT value FROM meta WHERE name = 'format'`).get()?.value
      : undefined
    if (format !== FORMAT) {
      throw new DataFileError(`${this.location} is a SQLite database, but not a chamberctl sandbox`)
    }
    return true
  }

  // The first process to open a new database creates its schema and records; the others wait,
  // then find them there.
  private initialize(initial: () => Dataset): this {
    this.transaction(() => {
      if (this.checkFormat()) return void this.db.exec(TOKENS)
      for (const statement of [...TABLES, TOKENS]) this.db.exec(statement)
      this.db.prepare('INSERT INTO meta VALUES (?, ?)').run('format', FORMAT)
      this.insertDataset(initial())
      for (const statement of INDEXES) this.db.exec(statement)
    })
    return this
  }

  close(): void {
    if (this.open) this.db.close()
    this.open = false
  }

  // -- reading ---------------------------------------------------------------------------------

  getChamber(id: string): ChamberRow | undefined {
    const row = this.statement('SELECT seq, body FROM chambers WHERE id = ?').get(id)
    return row && { seq: Number(row.seq), record: JSON.parse(String(row.body)) }
  }

  listChambers(filters: { type?: string; status?: string }, request: PageRequest) {
    const where = equalities({ type: filters.type, status: filters.status })
    return this.page<StoredChamber>('chambers', where, request, () => this.count('chambers', where))
  }

  listMembers(chamber: ChamberRow, status: string | undefined, request: PageRequest) {
    const where = equalities({ chamber: chamber.seq, status })
    const total = () => {
      const sql = `SELECT coalesce(sum(n), 0) AS n FROM member_counts WHERE ${where.sql}`
      return Number(this.statement(sql).get(...where.values)!.n)
    }
    // Walking an index backwards would reverse the creation order of equal values too.
    if (request.sort?.descending && !(status && request.sort.field === 'status')) {
      return { records: this.membersDescending(where, request), total: total() }
    }
    return this.page<StoredMember>('members', where, request, total)
  }

  // An event matches when it overlaps [from, to]; one whose dates do not parse never does.
  listEvents(chamber: ChamberRow, window: EventWindow, request: PageRequest) {
    const where = equalities({ chamber: chamber.seq, status: window.status })
    where.sql += ' AND ends >= ? AND starts <= ?'
    where.values.push(window.from, window.to)
    return this.page<StoredEvent>('events', where, request, () => this.count('events', where))
  }

  // The first events of a chamber in creation order, whatever their dates (include=events).
  firstEvents(chamber: ChamberRow, perPage: number): Found<StoredEvent> {
    const where = equalities({ chamber: chamber.seq })
    return this.page('events', where, { page: 1, perPage }, () => this.count('events', where))
  }

  getMember(chamber: ChamberRow, id: string): StoredMember | undefined {
    const sql = `SELECT body FROM members WHERE chamber = ? AND ${key('id')} = ? AND id = ?
      ORDER BY seq LIMIT 1`
    return this.bodies<StoredMember>(sql, [chamber.seq, sortKey(id), id])[0]
  }

  getGrant(digest: string): Grant | undefined {
    const row = this.statement('SELECT version, expires FROM tokens WHERE digest = ?').get(digest)
    return row && { version: row.version as Grant['version'], expiresAt: Number(row.expires) }
  }

  // -- writing ---------------------------------------------------------------------------------

  // Expired tokens go when a new one is stored. Not a write of records: pages resume as before.
  putGrant(digest: string, grant: Grant, now: number): void {
    this.transaction(() => {
      this.statement('DELETE FROM tokens WHERE expires <= ?').run(now)
      this.statement('INSERT INTO tokens VALUES (?, ?, ?)').run(
        digest,
        grant.version,
        grant.expiresAt,
      )
    }, 'none')
  }

  // `build` makes the record around the id it is given; it is stored as built.
  addChamber(build: (id: string) => StoredChamber): StoredChamber {
    return this.transaction(() => {
      const chamber = build(this.takeId('chamber'))
      this.insertChamber(chamber)
      return chamber
    }, 'inserts')
  }

  // Throws DuplicateEmailError, and stores nothing, when the chamber has the address already.
  addMember(chamber: ChamberRow, build: (id: string) => StoredMember): StoredMember {
    return this.transaction(() => {
      const member = build(this.takeId('member'))
      try {
        this.insertMember(chamber.seq, member)
      } catch (error) {
        if ((error as { errcode?: number }).errcode === SQLITE_CONSTRAINT_UNIQUE) {
          throw new DuplicateEmailError(member.email)
        }
        throw error
      }
      return member
    }, 'inserts')
  }

  // Every record replaced by `dataset`, ids counted from it again (POST /_sandbox/reset).
  reset(dataset: Dataset): void {
    this.transaction(() => {
      for (const table of ['chambers', 'members', 'member_counts', 'events', 'counters']) {
        this.db.exec(`DELETE FROM ${table}`)
      }
      this.insertDataset(dataset)
    })
  }

  counts(): Record<'chambers' | 'members' | 'events', number> {
    const all = { sql: '1', values: [] }
    const members = Number(
      this.statement('SELECT coalesce(sum(n), 0) AS n FROM member_counts').get()!.n,
    )
    return { chambers: this.count('chambers', all), members, events: this.count('events', all) }
  }

  // Adds `count` members to each chamber, made by `make(chamber, i, n)`: the chamber's i-th
  // member, the sandbox's n-th. One transaction, with the sort indexes rebuilt once at the end
  // instead of updated per row (a bench fills 100 chambers in one).
  addMembers(chambers: readonly ChamberRow[], count: number, make: MakeMember) {
    // Index builds sort in the page cache; a large one for the fill, the default after it.
    this.db.exec(`PRAGMA cache_size = ${FILL_CACHE_KIB}`)
    try {
      this.fill(chambers, count, make)
    } finally {
      this.db.exec(`PRAGMA cache_size = ${CACHE_KIB}; PRAGMA shrink_memory`)
    }
  }

  private fill(chambers: readonly ChamberRow[], count: number, make: MakeMember) {
    this.transaction(() => {
      const next = this.nextNumber('member')
      for (const statement of MEMBER_INDEXES) {
        this.db.exec(`DROP INDEX ${/INDEX (\w+)/.exec(statement)![1]}`)
      }
      for (const [c, chamber] of chambers.entries()) {
        const first = this.memberCount(chamber)
        for (let i = 0; i < count; i++) {
          this.insertMember(chamber.seq, make(chamber, first + i, next + c * count + i))
        }
      }
      for (const statement of MEMBER_INDEXES) this.db.exec(statement)
      this.setNextNumber('member', next + chambers.length * count)
    })
  }

  memberCount(chamber: ChamberRow): number {
    const sql = 'SELECT coalesce(sum(n), 0) AS n FROM member_counts WHERE chamber = ?'
    return Number(this.statement(sql).get(chamber.seq)!.n)
  }

  // -- internals -------------------------------------------------------------------------------

  private page<T>(
    table: 'chambers' | 'members' | 'events',
    where: Where,
    { page, perPage, sort }: PageRequest,
    total: () => number,
  ): Found<T> {
    const column = sort ? key(sort.field) : 'seq'
    const order = sort ? `${column} ${sort.descending ? 'DESC' : 'ASC'}, seq` : 'seq'
    const list = this.listKey(table, where, order, perPage)
    const after = sort ? `(${column}, seq) > (?, ?)` : 'seq > ?'
    const from = (point: Resume) => [...(sort ? [point.key] : []), point.seq]
    // Only ascending orders: (key, seq) after a point is then one seek into the index.
    let resume = sort?.descending ? undefined : this.resumeAt(list, page)
    let skip = resume ? 0 : (page - 1) * perPage
    if (!resume && !sort?.descending && skip >= MARK_EVERY) {
      const list = this.listKey(table, where, order, 0, this.edits)
      const mark = this.markUpTo(list, table, where, column, skip, (point) => {
        const sql = `SELECT seq, ${column} AS key FROM ${table} WHERE ${where.sql}
          ${point ? `AND ${after}` : ''} ORDER BY ${order} LIMIT 1 OFFSET ${MARK_EVERY - 1}`
        return this.rows(sql, [...where.values, ...(point ? from(point) : [])])[0]
      })
      resume = mark
      skip -= mark?.at ?? 0
    }
    const rows = this.rows(
      `SELECT seq, ${column} AS key, body FROM ${table} WHERE ${where.sql}
        ${resume ? `AND ${after}` : ''} ORDER BY ${order} LIMIT ? OFFSET ?`,
      [...where.values, ...(resume ? from(resume) : []), perPage, skip],
    )
    this.remember(list, page, perPage, rows)
    return { records: rows.map((row) => JSON.parse(String(row.body)) as T), total: total() }
  }

  // Descending by the sort key, equal keys in creation order: the distinct keys are walked down
  // the index one seek at a time, and each key's members read up it. As many keys as the page
  // needs at most, since every key has a member. The page after one already served starts at
  // its last key, past the members of that key it showed.
  private membersDescending(where: Where, request: PageRequest): StoredMember[] {
    const { page, perPage, sort } = request
    const column = key(sort!.field)
    const list = this.listKey('members', where, `${column} DESC`, perPage)
    const resume = this.resumeAt(list, page)
    const offset = resume ? 0 : (page - 1) * perPage
    const first = resume ? '?' : `max(${column}) FROM members WHERE ${where.sql}`
    const sql = `WITH RECURSIVE keys(value) AS (
        SELECT ${first}
        UNION ALL
        SELECT (SELECT max(${column}) FROM members WHERE ${where.sql} AND ${column} < keys.value)
        FROM keys WHERE keys.value IS NOT NULL LIMIT ?)
      SELECT m.seq, m.${column} AS key, m.body FROM keys CROSS JOIN members AS m
      WHERE ${where.sql.replace(/(\w+) (=|IS) \?/g, 'm.$1 $2 ?')} AND m.${column} = keys.value
        ${resume ? `AND (m.${column} < ? OR m.seq > ?)` : ''}
      LIMIT ? OFFSET ?`
    const values = [
      ...(resume ? [resume.key] : where.values),
      ...where.values,
      // The resumed key may have no member left to show: one key more.
      resume ? perPage + 1 : offset + perPage,
      ...where.values,
      ...(resume ? [resume.key, resume.seq] : []),
      perPage,
      offset,
    ]
    const rows = this.rows(sql, values)
    this.remember(list, page, perPage, rows)
    return rows.map((row) => JSON.parse(String(row.body)) as StoredMember)
  }

  // The last mark of a list at or before record `offset`, noting those missing: `next` finds the
  // record MARK_EVERY after a mark (or from the start), so a count is never longer than one
  // without marks. Records inserted since the marks were last used move the marks after them.
  private markUpTo(
    list: string,
    table: string,
    where: Where,
    column: string,
    offset: number,
    next: (point: Resume | undefined) => Record<string, SQLOutputValue> | undefined,
  ): Mark | undefined {
    const newest = this.statement(`SELECT coalesce(max(seq), 0) AS n FROM ${table}`).get()!.n
    const entry = this.marks.get(list) ?? { marks: [], seen: Number(newest) }
    const { marks } = entry
    if (Number(newest) > entry.seen && marks.length > 0) {
      // NOT INDEXED: only the new rows, by row number, whatever index the filter could use.
      const sql = `SELECT seq, ${column} AS key FROM ${table} NOT INDEXED
        WHERE seq > ? AND ${where.sql}`
      for (const row of this.rows(sql, [entry.seen, ...where.values])) {
        const inserted = { key: row.key as SQLInputValue, seq: Number(row.seq) }
        // Marks are in list order: the first one after the new record, by halving.
        let [low, high] = [0, marks.length]
        while (low < high) {
          const middle = (low + high) >> 1
          if (compareRows(inserted, marks[middle]!) < 0) high = middle
          else low = middle + 1
        }
        for (const mark of marks.slice(low)) mark.at++
      }
    }
    entry.seen = Number(newest)
    while ((marks.at(-1)?.at ?? 0) + MARK_EVERY <= offset) {
      const row = next(marks.at(-1))
      if (!row) break
      const at = (marks.at(-1)?.at ?? 0) + MARK_EVERY
      marks.push({ key: row.key as SQLInputValue, seq: Number(row.seq), at })
    }
    this.marks.delete(list)
    this.marks.set(list, entry)
    if (this.marks.size > RESUMES_KEPT) this.marks.delete(this.marks.keys().next().value!)
    return marks.findLast((mark) => mark.at <= offset)
  }

  // One list as it stands now: its query, page size and the database's write counts, read once
  // for the page served and the one after it.
  private listKey(
    table: string,
    where: Where,
    order: string,
    perPage: number,
    writes = this.writes,
  ): string {
    const version = `${writes}:${this.statement('PRAGMA data_version').get()!.data_version}`
    return [table, where.sql, JSON.stringify(where.values), order, perPage, version].join('\0')
  }

  private resumeAt(list: string, page: number): Resume | undefined {
    return page > 1 ? this.resumes.get(`${list}\0${page}`) : undefined
  }

  private remember(
    list: string,
    page: number,
    perPage: number,
    rows: Record<string, SQLOutputValue>[],
  ) {
    const last = rows.at(-1)
    if (rows.length < perPage || !last) return
    this.resumes.set(`${list}\0${page + 1}`, {
      key: last.key as SQLInputValue,
      seq: Number(last.seq),
    })
    if (this.resumes.size > RESUMES_KEPT) this.resumes.delete(this.resumes.keys().next().value!)
  }

  private count(table: string, where: Where): number {
    const sql = `SELECT count(*) AS n FROM ${table} WHERE ${where.sql}`
    return Number(this.statement(sql).get(...where.values)!.n)
  }

  private bodies<T>(sql: string, values: SQLInputValue[]): T[] {
    return this.rows(sql, values).map((row) => JSON.parse(String(row.body)) as T)
  }

  private rows(sql: string, values: SQLInputValue[]): Record<string, SQLOutputValue>[] {
    return this.statement(sql).all(...values)
  }

  private statement(sql: string): StatementSync {
    let statement = this.statements.get(sql)
    if (!statement) this.statements.set(sql, (statement = this.db.prepare(sql)))
    return statement
  }

  // IMMEDIATE: the write lock is taken at the start, so that two processes never both read and
  // then both try to write (which SQLite would refuse to one of them without waiting).
  // `writes`: what it changes; any record written ends the pages remembered for resuming, any
  // but a new one the marks.
  private transaction<T>(work: () => T, writes: Writes = 'records'): T {
    if (writes !== 'none') {
      this.writes++
      this.resumes.clear()
    }
    if (writes === 'records') {
      this.edits++
      this.marks.clear()
    }
    this.db.exec('BEGIN IMMEDIATE')
    try {
      const result = work()
      this.db.exec('COMMIT')
      return result
    } catch (error) {
      try {
        this.db.exec('ROLLBACK')
      } catch {
        // SQLite has rolled it back itself (a full disk, an I/O error).
      }
      throw error
    }
  }

  private insertDataset(dataset: Dataset): void {
    for (const chamber of dataset.chambers) this.insertChamber(chamber)
    const seqOf = new Map<string, number>()
    for (const row of this.db.prepare('SELECT seq, id FROM chambers').all()) {
      seqOf.set(String(row.id), Number(row.seq))
    }
    const chamberOf = (record: { chamber_id: string }, where: string) => {
      const seq = seqOf.get(record.chamber_id)
      if (seq === undefined) throw new DataFileError(`${where}: no chamber ${record.chamber_id}`)
      return seq
    }
    dataset.members.forEach((member, i) => {
      const seq = chamberOf(member, `members[${i}]`)
      try {
        this.insertMember(seq, member)
      } catch (error) {
        if ((error as { errcode?: number }).errcode !== SQLITE_CONSTRAINT_UNIQUE) throw error
        throw new DataFileError(
          `members[${i}]: ${member.email} is a second member of ${member.chamber_id} with that e-mail address`,
        )
      }
    })
    dataset.events.forEach((event, i) => this.insertEvent(chamberOf(event, `events[${i}]`), event))
    for (const kind of Object.keys(ID_PREFIX) as Kind[]) {
      this.setNextNumber(kind, nextNumberAbove(kind, dataset[TABLE[kind]]))
    }
  }

  // A chamber id seen twice keeps its first place and its last record, as a map would.
  private insertChamber(chamber: StoredChamber): void {
    this.insert('chambers', 'chambers', chamber, { type: chamber.type, status: chamber.status }, [
      'ON CONFLICT (id) DO UPDATE SET type = excluded.type, status = excluded.status,',
      SORT_FIELDS.chambers.map((field) => `${key(field)} = excluded.${key(field)},`).join(' '),
      'body = excluded.body',
    ])
  }

  private insertMember(chamber: number, member: StoredMember): void {
    this.insert('members', 'members', member, {
      chamber,
      status: member.status,
      email: emailKey(member.email),
    })
  }

  private insertEvent(chamber: number, event: StoredEvent): void {
    this.insert('events', 'events', event, {
      chamber,
      status: event.status,
      starts: timestamp(event.starts_at),
      ends: timestamp(event.ends_at),
    })
  }

  private insert(
    table: string,
    resource: SortableResource,
    record: { id: string },
    columns: Record<string, SQLInputValue | undefined>,
    conflict: string[] = [],
  ): void {
    const fields = SORT_FIELDS[resource]
    const names = ['id', ...Object.keys(columns), ...fields.map(key), 'body']
    const sql = `INSERT INTO ${table} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')}) ${conflict.join(' ')}`
    const values = [
      record.id,
      ...Object.values(columns).map((value) => value ?? null),
      ...fields.map((field) => sortKey(String((record as Record<string, unknown>)[field] ?? ''))),
      JSON.stringify(record),
    ]
    this.statement(sql).run(...values)
  }

  private takeId(kind: Kind): string {
    const n = this.nextNumber(kind)
    this.setNextNumber(kind, n + 1)
    return ID_PREFIX[kind] + String(n).padStart(kind === 'member' ? 6 : 4, '0')
  }

  private nextNumber(kind: Kind): number {
    return Number(this.statement('SELECT next FROM counters WHERE kind = ?').get(kind)?.next ?? 1)
  }

  private setNextNumber(kind: Kind, next: number): void {
    const sql = 'INSERT INTO counters VALUES (?, ?) ON CONFLICT DO UPDATE SET next = excluded.next'
    this.statement(sql).run(kind, next)
  }
}

const SQLITE_NOTADB = 26
const SQLITE_CONSTRAINT_UNIQUE = 2067

type Where = { sql: string; values: SQLInputValue[] }

// `column = ?` for each value given; the first one always, since it is the index's first column.
function equalities(columns: Record<string, SQLInputValue | undefined>): Where {
  const given = Object.entries(columns).filter(([, value]) => value !== undefined)
  if (given.length === 0) return { sql: '1', values: [] }
  return {
    sql: given.map(([column]) => `${column} = ?`).join(' AND '),
    values: given.map(([, value]) => value!),
  }
}

// An event's time as an instant, the same in every time zone the sandbox may run in: ISO 8601
// only, one without an offset read as UTC (instantOf).
function timestamp(value: string): number | null {
  const ms = instantOf(value)
  return Number.isNaN(ms) ? null : ms
}

// Ids the sandbox issued itself carry a counter; new ones go on above every loaded one.
function nextNumberAbove(kind: Kind, records: { id: string }[]): number {
  const prefix = ID_PREFIX[kind]
  let next = 1
  for (const { id } of records) {
    if (!id.startsWith(prefix)) continue
    const n = Number(id.slice(prefix.length))
    if (Number.isInteger(n) && n >= next) next = n + 1
  }
  return next
}

// SQLite would create the file with the umask's mode; a sandbox's data is the user's alone.
function createPrivateFile(path: string): void {
  try {
    closeSync(openSync(path, 'wx', 0o600))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

// SQLite's order of two (sort key, row number) pairs: numbers by value, text by its bytes (UTF-8:
// code points, where JavaScript's < compares UTF-16 units).
function compareRows(a: Resume, b: Resume): number {
  if (a.key !== b.key) {
    if (typeof a.key === 'string' && typeof b.key === 'string') {
      return Buffer.compare(Buffer.from(a.key), Buffer.from(b.key))
    }
    return Number(a.key) < Number(b.key) ? -1 : 1
  }
  return a.seq - b.seq
}
