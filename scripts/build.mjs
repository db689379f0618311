// Bundles the CLI into dist/: one small entry chunk, and a chunk per lazily imported command or
// heavy module, so that `chamberctl --version` loads almost nothing.
import { build } from 'esbuild'
import { readFile, rename, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export async function buildCli() {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, 'utf8'))
  // Built beside dist/ and swapped in, so that a CLI running from dist/ (a test, a benchmark)
  // never sees it half-written or missing, and stale chunks are never left behind.
  const staging = `dist.${process.pid}.tmp`
  await rm(`${root}/${staging}`, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/cli/main.ts' },
    outdir: staging,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    minify: true,
    chunkNames: 'chunks/[name]-[hash]',
    define: { __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version) },
    // Bundled CommonJS dependencies (cli-table3) call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __chamberctlRequire } from 'node:module'; const require = __chamberctlRequire(import.meta.url);",
    },
    logLevel: 'warning',
  })
  const old = `${root}/dist.${process.pid}.old`
  await rename(`${root}/dist`, old).catch(() => {})
  await rename(`${root}/${staging}`, `${root}/dist`)
  await rm(old, { recursive: true, force: true })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli()
