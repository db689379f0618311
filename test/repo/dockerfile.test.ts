// The Dockerfile, read as BuildKit reads it (no Docker on the machines that run the tests): a base
// pinned by digest, a binary chosen by TARGETARCH, OCI labels, a user that is not root, a health
// check that is a chamberctl command, and the sandbox on 0.0.0.0 by default. That the sandbox
// answers on 0.0.0.0 and `sandbox --check` works: test/e2e/sandbox-host.test.ts.
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../helpers/run-cli.js'

type Instruction = { keyword: string; args: string }

// Instructions with their continuation lines joined, comments left out.
function instructions(text: string): Instruction[] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [, keyword, args] = /^(\S+)\s*(.*)$/.exec(line)!
      return { keyword: keyword!.toUpperCase(), args: args!.replace(/\s+/g, ' ') }
    })
}

const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')
const all = instructions(dockerfile)
// The image's own stage: everything from the last FROM on.
const lastFrom = all.map((i) => i.keyword).lastIndexOf('FROM')
const final = all.slice(lastFrom)
const args = (keyword: string) => final.filter((i) => i.keyword === keyword).map((i) => i.args)
const exec = (keyword: string) => JSON.parse(args(keyword).at(-1)!.replace(/^CMD /, '')) as string[]

describe('Dockerfile', () => {
  it('starts from debian:bookworm-slim pinned by the digest of its index', () => {
    expect(all[lastFrom]!.args).toMatch(/^debian:bookworm-slim@sha256:[0-9a-f]{64}$/)
    // Every other stage is scratch or one of its own.
    const stages = all.filter((i) => i.keyword === 'FROM').slice(0, -1)
    for (const { args: from } of stages)
      expect(from).toMatch(/^(scratch|binary-\$\{TARGETARCH\}) AS /)
    expect(dockerfile).toMatch(/^# .*docker buildx imagetools inspect debian:bookworm-slim/m)
  })

  it("takes the binary of BuildKit's TARGETARCH: amd64 → linux-x64, arm64 → linux-arm64", () => {
    const stage = (arch: string) => {
      const at = all.findIndex(
        (i) => i.keyword === 'FROM' && i.args === `scratch AS binary-${arch}`,
      )
      return all[at + 1]
    }
    expect(stage('amd64')).toEqual({
      keyword: 'COPY',
      args: 'release/chamberctl-linux-x64 /chamberctl',
    })
    expect(stage('arm64')).toEqual({
      keyword: 'COPY',
      args: 'release/chamberctl-linux-arm64 /chamberctl',
    })
    expect(all[0]).toEqual({ keyword: 'ARG', args: 'TARGETARCH' })
    expect(args('COPY')).toEqual([
      '--from=binary --chmod=755 /chamberctl /usr/local/bin/chamberctl',
    ])
    expect(dockerfile).not.toMatch(/\bARG ARCH\b/)
  })

  it('carries the OCI labels, version and revision from build arguments', () => {
    const labels = Object.fromEntries(
      [
        ...args('LABEL')
          .join(' ')
          .matchAll(/(org\.opencontainers\.image\.\w+)="([^"]*)"/g),
      ].map(([, key, value]) => [key!.replace('org.opencontainers.image.', ''), value]),
    )
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      license: string
    }
    expect(labels).toEqual({
      title: 'chamberctl',
      description: expect.stringMatching(/\S/),
      version: '${VERSION}',
      revision: '${REVISION}',
      source: '${SOURCE}',
      licenses: pkg.license,
    })
    expect(args('ARG')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^VERSION=/),
        expect.stringMatching(/^REVISION=/),
        expect.stringMatching(/^SOURCE=https:\/\//),
      ]),
    )
  })

  it('runs as a user that is not root', () => {
    const user = args('USER').at(-1)
    expect(user).toBe('chamberctl')
    expect(args('RUN').join(' ')).toContain('useradd --create-home --uid 10001 chamberctl')
    // Nothing after USER runs as root again.
    const at = final.findIndex((i) => i.keyword === 'USER')
    expect(final.slice(at).filter((i) => ['RUN', 'COPY', 'USER'].includes(i.keyword))).toHaveLength(
      1,
    )
  })

  it('checks its health with chamberctl, on the port the sandbox serves by default', () => {
    const [healthcheck] = args('HEALTHCHECK')
    const cmd = JSON.parse(/ CMD (\[.*\])$/.exec(healthcheck!)![1]!) as string[]
    expect(cmd).toEqual(['chamberctl', 'sandbox', '--check'])
    expect(exec('ENTRYPOINT')).toEqual(['chamberctl'])
    // The default command serves on every interface, on the port the check asks and EXPOSE names.
    expect(exec('CMD')).toEqual(['sandbox', '--host', '0.0.0.0'])
    expect(args('EXPOSE')).toEqual(['4010'])
  })
})
