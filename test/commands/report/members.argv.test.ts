// report members: argv → options, the flag rules included (the verb is mocked, its toOptions is
// not; its behaviour is in members.test.ts).
import { describe, vi } from 'vitest'
import { members } from '../../../src/commands/report/members.js'
import { argvCases } from '../../helpers/argv.js'

vi.mock('../../../src/commands/report/members.js', async (real) => ({
  ...(await real<object>()),
  members: vi.fn(),
}))

const none = { type: undefined, status: undefined, memberStatus: undefined }

describe('report members: argv → options', () => {
  argvCases(vi.mocked(members), {
    parses: [
      [['report', 'members'], { selection: none }],
      [
        ['report', 'members', '--type', 'hq', '--status', 'active', '--member-status', 'pending'],
        { selection: { type: 'hq', status: 'active', memberStatus: 'pending' } },
      ],
      [['report', 'members', '--limit', '10'], { selection: none, limit: 10 }],
    ],
    refuses: [
      [['report', 'members', '--type', 'branch'], '--type'],
      [['report', 'members', '--member-status', 'gone'], '--member-status'],
      [['report', 'members', '--limit', '0'], '--limit'],
      [['report', 'members', '--fields', 'chamber.city'], 'known: chamber_id, chamber_name'],
      [['report', 'members', 'ch_0001'], 'too many arguments'],
    ],
  })
})
