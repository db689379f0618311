// Bundles the CLI into dist/: one small entry chunk, and a chunk per lazily imported command or
// heavy module, so that `chamberctl --version` loads almost nothing.
import { build } from 'esbuild'
import { readFile, rm } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export async function buildCli() {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, 'utf8'))
  await rm(`${root}/dist`, { recursive: true, force: true })
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'src/cli/main.ts' },
    outdir: 'dist',
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
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await buildCli()
