import { describe, expect, it, vi } from 'vitest'
import type { ListEnvelope } from '../../src/api/schemas.js'
import { paginate } from '../../src/api/paginate.js'
import type { PageRequest } from '../../src/api/paginate.js'

type Pending = { request: PageRequest; resolve: (page: ListEnvelope<number>) => void }

// A server whose pages answer only when the test says so, in any order it likes.
function controlledServer(total: number) {
  const pending: Pending[] = []
  const requested: PageRequest[] = []
  let inFlight = 0
  let maxInFlight = 0
  const fetchPage = (request: PageRequest) => {
    requested.push(request)
    inFlight++
    maxInFlight = Math.max(maxInFlight, inFlight)
    return new Promise<ListEnvelope<number>>((resolve) =>
      pending.push({
        request,
        resolve: (page) => {
          inFlight--
          resolve(page)
        },
      }),
    )
  }
  const answer = (page: number) => {
    const index = pending.findIndex((p) => p.request.page === page)
    const [{ request, resolve }] = pending.splice(index, 1) as [Pending]
    const size = request.perPage ?? 20
    const start = (page - 1) * size
    const data = Array.from(
      { length: Math.max(0, Math.min(size, total - start)) },
      (_, i) => start + i,
    )
    resolve({ data, meta: { current_page: page, per_page: size, total } })
  }
  const tick = () => new Promise((resolve) => setImmediate(resolve))
  const pendingPages = () => pending.map((p) => p.request.page)
  return {
    fetchPage,
    answer,
    requested,
    tick,
    pending: pendingPages,
    maxInFlight: () => maxInFlight,
  }
}

describe('paginate', () => {
  it('yields strictly in order while later pages are fetched concurrently, at most 4 ahead', async () => {
    const server = controlledServer(1000)
    const out: number[] = []
    const done = (async () => {
      for await (const n of paginate(server.fetchPage, { all: true, perPage: 100 })) out.push(n)
    })()
    await server.tick()
    server.answer(1)
    await server.tick()
    expect(server.requested.map((r) => r.page)).toEqual([1, 2, 3, 4, 5])
    // Later pages answer first; nothing past page 1 may come out before page 2.
    server.answer(5)
    server.answer(3)
    await server.tick()
    expect(out).toHaveLength(100)
    server.answer(2)
    await server.tick()
    expect(out).toHaveLength(300)
    // Answer the rest newest first, each time the window has refilled.
    while (server.pending().length > 0) {
      for (const page of server.pending().reverse()) server.answer(page)
      await server.tick()
    }
    await done
    expect(out).toEqual(Array.from({ length: 1000 }, (_, i) => i))
    expect(server.requested.map((r) => r.page)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(server.maxInFlight()).toBe(4)
  })

  it('streams: the first records are out before the last page is fetched', async () => {
    const server = controlledServer(300)
    const iterator = paginate(server.fetchPage, { all: true, perPage: 100 })[Symbol.asyncIterator]()
    const first = iterator.next()
    await server.tick()
    server.answer(1)
    expect((await first).value).toBe(0)
    expect(server.requested.map((r) => r.page)).toEqual([1, 2, 3])
    await iterator.return?.()
  })

  it('one page by default, the requested one', async () => {
    const server = controlledServer(50)
    const out: number[] = []
    const done = (async () => {
      for await (const n of paginate(server.fetchPage, { page: 2, perPage: 10 })) out.push(n)
    })()
    await server.tick()
    server.answer(2)
    await done
    expect(out).toEqual([10, 11, 12, 13, 14, 15, 16, 17, 18, 19])
    expect(server.requested).toEqual([{ page: 2, perPage: 10 }])
  })

  it('--all from a later page ends at the last page', async () => {
    const server = controlledServer(45)
    const out: number[] = []
    const done = (async () => {
      for await (const n of paginate(server.fetchPage, { page: 2, perPage: 10, all: true })) {
        out.push(n)
      }
    })()
    for (const page of [2, 3, 4, 5]) {
      await server.tick()
      server.answer(page)
    }
    await done
    expect(out).toEqual(Array.from({ length: 35 }, (_, i) => i + 10))
    expect(server.requested.map((r) => r.page)).toEqual([2, 3, 4, 5])
  })

  it('stops at an empty page even if total promised more', async () => {
    const fetchPage = async ({ page }: PageRequest) => ({
      data: page === 1 ? [1, 2] : [],
      meta: { current_page: page, per_page: 2, total: 10 },
    })
    const out: number[] = []
    for await (const n of paginate(fetchPage, { all: true, perPage: 2, concurrency: 1 }))
      out.push(n)
    expect(out).toEqual([1, 2])
  })

  it('goes by the pages when the meta numbers the first page otherwise than asked', async () => {
    // As Prism's dynamic mock answers: random meta, two records on a page of "17".
    const requested: number[] = []
    const fetchPage = async ({ page }: PageRequest) => {
      requested.push(page)
      return {
        data: page <= 2 ? [page * 10, page * 10 + 1] : page === 3 ? [30] : [],
        meta: { current_page: 68_196_634, per_page: 2, total: 88_259_728 },
      }
    }
    const out: number[] = []
    for await (const n of paginate(fetchPage, { all: true, perPage: 2 })) out.push(n)
    // The short page is the last: no page after it is asked for.
    expect(out).toEqual([10, 11, 20, 21, 30])
    expect(requested).toEqual([1, 2, 3])
  })
})

// The heap is held flat (src/v8-flags.ts) while pages are walked, and given
// back whichever way the walk ends: at the last page, stopped early by its reader, or failed.
describe('pages holds the heap flat while it walks', () => {
  const holds = vi.hoisted(() => ({ now: 0, most: 0 }))
  vi.mock('../../src/v8-flags.js', () => ({
    holdHeapFlat: () => {
      holds.most = Math.max(holds.most, ++holds.now)
      return () => void holds.now--
    },
  }))
  const page = (n: number) => ({ data: [n], meta: { current_page: n, per_page: 1, total: 3 } })

  it('to the last page, stopped early, and failed, with or without a total', async () => {
    holds.most = 0
    const seen: number[] = []
    for await (const n of paginate(async ({ page: n }) => page(n), { all: true })) {
      seen.push(n)
      expect(holds.now).toBe(1)
    }
    expect([seen, holds.now]).toEqual([[1, 2, 3], 0])
    for await (const n of paginate(async ({ page: n }) => page(n), { all: true }))
      if (n === 2) break
    expect(holds.now).toBe(0)
    const failing = paginate(
      async ({ page: n }) => {
        if (n === 2) throw new Error('page 2 failed')
        return { data: [n], meta: { per_page: 1 } }
      },
      { all: true },
    )
    await expect(async () => {
      for await (const n of failing) void n
    }).rejects.toThrow('page 2 failed')
    expect([holds.now, holds.most]).toEqual([0, 1])
  })
})
