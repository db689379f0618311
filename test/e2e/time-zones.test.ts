// The built CLI, with its embedded sandbox, under time zones and locales far apart: every date it
// sends, compares, refuses or prints is the same instant and the same text on every machine.
import { describe, expect, it } from 'vitest'
import { BIG_CHAMBER, useTempDirs } from '../helpers/sandbox.js'
import { runCli } from '../helpers/run-cli.js'

const tempDir = useTempDirs('chamberctl-zones-')

const PLACES: NodeJS.ProcessEnv[] = [
  { TZ: 'UTC', LC_ALL: 'C' },
  { TZ: 'Pacific/Kiritimati', LC_ALL: 'tr_TR.UTF-8' },
  { TZ: 'America/Los_Angeles', LC_ALL: 'de_DE.UTF-8' },
  { TZ: 'Asia/Kolkata', LANG: 'ar_EG.UTF-8' },
]

describe('dates mean one instant', () => {
  it('events list sends, compares and refuses alike in every time zone and locale', async () => {
    // One sandbox database for every run, so that its demo events (dated from today) are the same.
    const configDir = tempDir()
    const run = (args: string[], place: NodeJS.ProcessEnv = PLACES[0]!) =>
      runCli(args, { configDir, env: { CHAMBERCTL_SANDBOX: 'v2', ...place } })
    const all = await run(['events', 'list', BIG_CHAMBER, '--json'])
    expect(all.code, all.stderr).toBe(0)
    const [first] = JSON.parse(all.stdout) as { starts_at: string }[]
    // An hour after the first event starts, as UTC writes it, without and with its offset.
    const hourAfter = new Date(Date.parse(first!.starts_at) + 3_600_000).toISOString().slice(0, 16)
    const day = first!.starts_at.slice(0, 10)
    const commands = [
      ['events', 'list', BIG_CHAMBER, '--from', day, '--to', day],
      ['events', 'list', BIG_CHAMBER, '--to', `${hourAfter}Z`],
      ['events', 'list', BIG_CHAMBER, '--to', `${hourAfter}+14:00`],
      ['events', 'list', BIG_CHAMBER, '--to', hourAfter],
      ['events', 'list', BIG_CHAMBER, '--from', `${day}T23:00-10:00`, '--to', day],
      ['events', 'list', BIG_CHAMBER, '--from', `${day}T12:00Z`, '--to', `${day}T11:00Z`],
      ['api', `/chambers/${BIG_CHAMBER}/events?filter[date_to]=${hourAfter}`],
    ]
    const results = (place: NodeJS.ProcessEnv) =>
      Promise.all(
        commands.map(async (args) => {
          const { code, stdout, stderr } = await run(args, place)
          return { args: args.join(' '), code, stdout, stderr }
        }),
      )
    const expected = await results(PLACES[0]!)
    expect(expected[0]!.stdout).toContain(first!.starts_at)
    expect(expected[1]!.stdout).toContain(first!.starts_at)
    expect(expected[2]!.stdout).not.toContain(first!.starts_at)
    expect(expected[3]).toMatchObject({
      code: 2,
      stdout: '',
      stderr: `error: --to ${hourAfter}: is a date-time without Z or an offset; give 2026-12-05, 2026-12-05T03:00Z or 2026-12-05T03:00+01:00\n`,
    })
    expect(expected[5]).toMatchObject({ code: 2, stdout: '' })
    // The sandbox's own answer, past the CLI: the same refusal.
    expect(expected[6]!.code).toBe(2)
    expect(expected[6]!.stdout).toMatch(/without Z or an offset/)
    for (const place of PLACES.slice(1)) expect(await results(place)).toEqual(expected)
  })
})
