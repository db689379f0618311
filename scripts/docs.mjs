// `npm run docs` (and the build): writes docs/ and man/chamberctl.1 from the command tree, through
// src/cli/docs.ts bundled on its own the way the CLI is. docs/ and man/ hold only what this
// writes: a page whose command is gone is deleted.
import { build } from 'esbuild'
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { BUNDLE_PLUGINS } from './release/bundle.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))
const GENERATED_DIRS = ['docs', 'man']

export async function writeDocs() {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8'))
  const bundle = join(tmpdir(), `chamberctl-docs-${process.pid}.mjs`)
  await build({
    absWorkingDir: root,
    entryPoints: ['src/cli/docs.ts'],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node22.13',
    define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
    plugins: BUNDLE_PLUGINS,
    external: ['@napi-rs/keyring'],
    logLevel: 'warning',
  })
  let files
  try {
    files = (await import(pathToFileURL(bundle).href)).docFiles()
  } finally {
    await rm(bundle, { force: true })
  }
  for (const [path, text] of Object.entries(files)) {
    const target = join(root, path)
    const current = await readFile(target, 'utf8').catch(() => undefined)
    if (current === text) continue
    await mkdir(dirname(target), { recursive: true })
    await writeFile(target, text)
  }
  for (const dir of GENERATED_DIRS) {
    for (const entry of await readdir(join(root, dir), { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue
      const path = relative(root, join(entry.parentPath, entry.name)).split(sep).join('/')
      if (!Object.hasOwn(files, path)) await rm(join(root, path))
    }
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await writeDocs()
