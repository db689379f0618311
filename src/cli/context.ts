import type { IO } from '../io/streams.js'

// What commands are handed instead of globals. Grows lazily-built members as commands need them.
export type Context = {
  io: IO
}
