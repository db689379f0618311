// docs/ and man/chamberctl.1 are generated from the command tree: a page per command, the topics,
// an index whose links all resolve, and a man page troff reads as written.
import { describe, expect, it } from 'vitest'
import { docFiles, markdownToRoff } from '../../src/cli/docs.js'

const files = docFiles()

describe('npm run docs', () => {
  it('writes a page per command, one per topic, the global options and the man page', () => {
    const paths = Object.keys(files)
    for (const page of [
      'docs/commands/chamberctl-members-add.md',
      'docs/commands/chamberctl-auth-status.md',
      'docs/commands/chamberctl-sandbox.md',
      'docs/topics/environment.md',
      'docs/topics/exit-codes.md',
      'docs/options.md',
      'docs/README.md',
      'man/chamberctl.1',
    ]) {
      expect(paths).toContain(page)
    }
    expect(paths.filter((p) => p.startsWith('docs/topics/'))).toHaveLength(6)
    // Hidden commands have no page.
    expect(paths.some((p) => p.includes('__complete'))).toBe(false)
  })

  it('links only to pages it writes', () => {
    const links = [...files['docs/README.md']!.matchAll(/\]\(([^)#]+)\)/g)].map((m) => m[1])
    expect(links.length).toBeGreaterThan(20)
    for (const link of links) expect(files).toHaveProperty([`docs/${link}`])
  })

  it('a command page has its usage, options, applicable global options and examples', () => {
    const page = files['docs/commands/chamberctl-members-list.md']!
    expect(page).toContain('# chamberctl members list\n')
    expect(page).toContain('- `--per-page <n>`: records per page, 1..100 (default: 20)')
    expect(page).toMatch(/^Global options: .*`--jq`/m)
    expect(page).toContain('```sh\n# The first page, as a table\nchamberctl members list ch_0001')
    // The sandbox prints no records: of the output options, only --json (its start as JSON).
    expect(files['docs/commands/chamberctl-sandbox.md']).toMatch(/^Global options: .*--json/m)
    expect(files['docs/commands/chamberctl-sandbox.md']).not.toMatch(/^Global options: .*--jq/m)
  })

  it('the man page has every section, in ASCII, with no line troff would take for a request', () => {
    const man = files['man/chamberctl.1']!
    for (const section of ['NAME', 'SYNOPSIS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS']) {
      expect(man).toMatch(new RegExp(`^\\.SH ${section}$`, 'm'))
    }
    expect(man).toContain('CHAMBERCTL_TOKEN')
    expect(man).toMatch(/^\p{ASCII}*$/u)
    const requests = /^\.(TH|SH|SS|PP|IP|RS|RE|nf|fi|sp|B|BR|I)( |$)/
    for (const line of man.split('\n').filter((l) => /^[.']/.test(l))) {
      expect(line).toMatch(requests)
    }
  })

  it('turns Markdown into roff: code kept as written, text escaped', () => {
    expect(markdownToRoff('Run `chamberctl --help`.\n\n```sh\n.hidden \\ x\n```')).toBe(
      ['Run \\fBchamberctl --help\\fR.', '.PP', '.RS 4\n.nf', '\\&.hidden \\e x', '.fi\n.RE'].join(
        '\n',
      ),
    )
    expect(markdownToRoff('- Köln → x')).toBe('.IP \\(bu 2\nK\\[u00F6]ln \\[u2192] x')
  })
})
