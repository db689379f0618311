// Bundles the CLI into dist/: the whole CLI in one CommonJS file (chamberctl.cjs, with its linked
// source map and the notices of every package in it), and the small launcher the npm bin hands
// over to (launch.cjs), which answers --version alone and runs the bundle through a V8 code cache
// written after the first run (src/start/README.md); then the shipped completion scripts.
import { build } from 'esbuild'
import { execFile } from 'node:child_process'
import { copyFile, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { promisify } from 'node:util'
import { fileURLToPath } from 'node:url'
import { assertAscii, bundleOptions, digest } from './release/bundle.mjs'
import { bundledPackages, thirdPartyNotices } from './release/notices.mjs'

const root = fileURLToPath(new URL('..', import.meta.url))

export async function buildCli() {
  const options = await bundleOptions()
  // Built beside dist/ and swapped in, so that a CLI running from dist/ (a test, a benchmark)
  // never sees it half-written or missing, and stale files are never left behind.
  const staging = `${root}/dist.${process.pid}.tmp`
  await rm(staging, { recursive: true, force: true })
  let metafile
  try {
    metafile = await writeBundle(options, staging)
  } catch (error) {
    // A build that failed after esbuild wrote its files (a check of a plugin's, the ASCII check)
    // leaves none of them behind.
    await rm(staging, { recursive: true, force: true })
    throw error
  }
  const old = `${root}/dist.${process.pid}.old`
  await rename(`${root}/dist`, old).catch(() => {})
  await rename(staging, `${root}/dist`)
  await rm(old, { recursive: true, force: true })
  return { metafile }
}

async function writeBundle(options, staging) {
  const { metafile } = await build({
    ...options,
    entryPoints: { chamberctl: 'src/cli/main.ts' },
    outdir: staging,
    // Linked, without the sources' text: --debug maps its stack trace through it (src/io/stack.ts).
    sourcemap: 'linked',
    sourcesContent: false,
    metafile: true,
  })
  const bundle = await readFile(`${staging}/chamberctl.cjs`)
  assertAscii(bundle, 'dist/chamberctl.cjs')
  await build({
    ...options,
    entryPoints: { launch: 'src/start/launch.ts' },
    outdir: staging,
    define: { ...options.define, __CHAMBERCTL_BUNDLE_HASH__: JSON.stringify(digest(bundle)) },
  })
  // jq for --jq, read from disk only when the flag is given.
  const jqWasm = createRequire(import.meta.url).resolve('jq-wasm/jq.wasm')
  await copyFile(jqWasm, `${staging}/jq.wasm`)
  await writeFile(
    `${staging}/THIRD-PARTY-NOTICES.txt`,
    thirdPartyNotices({ product: 'chamberctl', packageDirs: bundledPackages(metafile, root) }),
  )
  return metafile
}

// The shipped completion scripts, as the CLI just built prints them. Not part of buildCli(): the
// tests build the bundle too, and must see the committed scripts as they are, stale or not.
export const COMPLETION_FILES = {
  bash: 'chamberctl.bash',
  zsh: '_chamberctl',
  fish: 'chamberctl.fish',
  powershell: 'chamberctl.ps1',
}

export async function writeCompletions() {
  await mkdir(`${root}/completions`, { recursive: true })
  for (const [shell, file] of Object.entries(COMPLETION_FILES)) {
    // A bare environment: the scripts must not depend on who builds them, or where.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [`${root}/bin/chamberctl.cjs`, 'completion', shell],
      { env: process.env.SYSTEMROOT ? { SYSTEMROOT: process.env.SYSTEMROOT } : {} },
    )
    const target = `${root}/completions/${file}`
    const current = await readFile(target, 'utf8').catch(() => undefined)
    if (current !== stdout) await writeFile(target, stdout)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildCli()
  await writeCompletions()
}
