// A resource that exists only in the test suite, declared as a shipped one is: its request schema
// (src/api/schemas.ts), its client call (src/api/client.ts) and its descriptor with `create`
// (src/api/resources/<name>.ts). The proof that a new write verb is a declaration
// (CONTRIBUTING.md, "Adding a write verb").
import * as z from 'zod/mini'
import { answerRecord, listAnswer, pageOf } from '../../src/api/answers.js'
import type { Client } from '../../src/api/client.js'
import { parseAnswer } from '../../src/api/responses.js'
import { creates } from '../../src/api/resources/descriptor.js'
import type { Creates, Descriptor } from '../../src/api/resources/descriptor.js'
import { id, main, nested, state, whole } from '../../src/api/resources/kinds.js'

export const widgetCreateSchema = z.looseObject({
  name: z.string({ error: 'is required' }).check(z.trim(), z.minLength(1, 'is required')),
  code: z.string({ error: 'is required' }).check(z.trim(), z.minLength(1, 'is required')),
  color: z.optional(z.string({ error: 'must be a string' })),
})
export type WidgetCreate = z.infer<typeof widgetCreateSchema>

// The client call a shipped resource would add to client.ts.
const post = async (client: Client, body: WidgetCreate, paced?: boolean) =>
  parseAnswer(
    answerRecord,
    await client.transport.send({ method: 'POST', path: '/widgets', body, paced }),
  )

export const widgets = {
  name: 'widgets',
  fields: { id: id(6), name: main, code: whole(8), color: whole(8) },
  columns: ['id', 'name', 'code', 'color'],
  create: creates<WidgetCreate>({
    noun: 'widget',
    schema: async () => widgetCreateSchema,
    path: () => '/widgets',
    send: (client, _parent, body, options) => post(client, body, options?.paced),
    list: (client) => async (page) =>
      pageOf(
        parseAnswer(
          listAnswer,
          await client.transport.send({
            method: 'GET',
            path: '/widgets',
            query: { page: page.page, per_page: page.perPage },
          }),
        ),
      ),
    key: { field: 'code', fold: (code) => code.trim().toLowerCase() },
    bulk: {
      results: {
        name: 'widget results',
        fields: {
          row: whole(4),
          status: state('not_sent'.length),
          id: id(6),
          code: whole(8),
          'error.message': main,
          error: nested,
          record: nested,
          input: nested,
        },
        columns: ['row', 'status', 'id', 'code', 'error.message'],
      },
      failures: {
        name: 'widget failures',
        fields: { line: whole(4), row: whole(4), status: state(8), reason: main, code: whole(8) },
        columns: ['row', 'status', 'reason', 'code'],
      },
    },
  }),
} as const satisfies Descriptor<Creates<WidgetCreate>>
