// Shell command lines laid out in a width as they still run when copied.
import { describe, expect, it } from 'vitest'
import { renderMarkdown } from '../../src/cli/render.js'
import { shellLines } from '../../src/cli/shell-lines.js'

describe('shell lines', () => {
  it('keeps a line that fits as it is', () => {
    expect(shellLines('chamberctl seed fixture.yaml   # JSON works too', 60)).toEqual([
      'chamberctl seed fixture.yaml   # JSON works too',
    ])
  })

  it('moves a trailing comment that does not fit above its command', () => {
    expect(
      shellLines('chamberctl seed fixture.yaml   # JSON works too, - reads stdin', 38),
    ).toEqual(['# JSON works too, - reads stdin', 'chamberctl seed fixture.yaml'])
  })

  it('continues a command with " \\" at spaces outside quotes, and wraps a comment as comments', () => {
    expect(
      shellLines(`  chamberctl chambers create --name 'CI Chamber of Bonn' --type hq`, 30),
    ).toEqual([
      '  chamberctl chambers \\',
      '    create --name \\',
      "    'CI Chamber of Bonn' \\",
      '    --type hq',
    ])
    expect(shellLines('# the plan: create, or skip (exists as <id>)', 30)).toEqual([
      '# the plan: create, or skip',
      '# (exists as <id>)',
    ])
  })

  it('leaves a line inside quotes that span lines as it is', () => {
    const line = `curl -fsS "http://127.0.0.1:$port/_sandbox/requests" | jq -e '.data[-1]`
    expect(shellLines(line, 40)).toEqual([line])
  })
})

describe('a shell code block of the manual', () => {
  it('is laid out in the width, not cut mid-word', () => {
    const markdown =
      '```sh\nchamberctl seed fixture.yaml --skip-existing   # re-runs create nothing twice\n```\n'
    expect(renderMarkdown(markdown, { width: 40, color: false })).toBe(
      '  # re-runs create nothing twice\n  chamberctl seed fixture.yaml \\\n    --skip-existing\n',
    )
  })
})
