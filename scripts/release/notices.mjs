// The third-party notices a bundle owes: every package esbuild put into it (read from the build's
// metafile), with its licence as the package ships it. Written at build time beside the bundle
// (dist/THIRD-PARTY-NOTICES.txt) and beside the single executables, which add what they embed.
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'

// The package directory of a bundled file: the part up to its innermost node_modules/<name>.
const PACKAGE_DIR = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//

export function bundledPackages(metafile, root) {
  const dirs = new Set()
  for (const input of Object.keys(metafile.inputs)) {
    const found = PACKAGE_DIR.exec(input)
    if (found) dirs.add(path.resolve(root, found[1]))
  }
  return [...dirs]
}

// `packageDirs`: directories of packages; `extra`: other notices ({ title, text }), such as
// Node.js's own licence for a binary that embeds it.
export function thirdPartyNotices({ product, packageDirs, extra = [] }) {
  const entries = new Map()
  for (const dir of packageDirs) {
    const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8'))
    const key = `${pkg.name}@${pkg.version}`
    if (entries.has(key)) continue
    const files = readdirSync(dir).filter((name) => /^(licen[cs]e|copying|notice)/i.test(name))
    const texts = files.sort().map((name) => readFileSync(path.join(dir, name), 'utf8').trim())
    entries.set(key, {
      title: `${key} (${licenceOf(pkg)})`,
      text:
        texts.join('\n\n') ||
        `The package ships no licence file; its package.json names the licence ${licenceOf(pkg)}.`,
    })
  }
  const all = [...[...entries.values()].sort((a, b) => a.title.localeCompare(b.title)), ...extra]
  const rule = '='.repeat(78)
  return [
    `Third-party notices for ${product}`,
    '',
    `${product} includes the following software, each under the licence shown with it.`,
    ...all.map(({ title, text }) => `\n${rule}\n${title}\n${rule}\n\n${text}\n`),
  ].join('\n')
}

function licenceOf(pkg) {
  if (typeof pkg.license === 'string') return pkg.license
  if (pkg.license?.type) return pkg.license.type
  return 'not stated'
}
