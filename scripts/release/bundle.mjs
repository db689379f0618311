// How every bundle of the CLI is made, for the npm package (scripts/build.mjs), the single
// executables (package.mjs), the docs (scripts/docs.mjs) and the bench: esbuild's options and the
// plugins that keep start-up short. What each does and why: src/start/README.md.
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { createRequire, isBuiltin } from 'node:module'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('../..', import.meta.url))

// undici's HTTP/2 client loads node:http2 (~20 ms of every run's start-up) as soon as its
// Client is loaded, yet it is only ever called for a connection that negotiated h2, which needs
// `allowH2: true`: chamberctl never sets it, so the bundle gets a stand-in that says so.
const withoutHttp2 = {
  name: 'without-http2',
  setup(build) {
    build.onResolve({ filter: /\/client-h2\.js$/ }, (args) =>
      args.importer.includes('/node_modules/undici/')
        ? { path: 'client-h2', namespace: 'without-http2' }
        : undefined,
    )
    build.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
      contents: "module.exports = () => { throw new Error('HTTP/2 is not enabled in chamberctl') }",
      loader: 'js',
    }))
  },
}

// Node's built-ins, however a bundled module asks for them, are handed over by
// process.getBuiltinModule(), which needs no require() in every chunk and no namespace: an ES
// module's `import … from 'node:fs'` builds one of all the built-in's exports, which runs every
// lazy getter it has (fs/promises and the streams, ~8 ms; for node:http undici's WebSocket,
// ~60 ms). The bundle reads the names it uses off the module object when it calls them.
//
// Some built-ins load modules of their own when their properties are merely listed, which the
// bundle does for every ES module import of one (esbuild's namespace copies each property's
// descriptor): node:util loads 14 (worker_threads, util.parseArgs, util.diff...), node:fs and
// node:buffer one each. Those are handed over behind an object whose prototype is the built-in,
// with no properties of its own to list: what is read off it is read off the built-in.
const LISTING_LOADS_MODULES = ['node:util', 'node:fs', 'node:buffer']

// Required at the top of a module that calls it only in a path chamberctl rarely or never takes:
// loaded on first use, not with the module. node:child_process (~3 ms) is for commander's
// executable subcommands, which chamberctl has none of; node:zlib for an answer that came
// compressed; node:http (Node's HTTP client and server, which a V8 startup snapshot cannot hold
// either: its parser's handles are not serialisable) for the sandbox's server, and for the two
// reads undici makes of it when loaded, which the bundle moves to when they are needed
// (UNDICI_LOAD_TIME_READS) and chamberctl's options make unneeded (src/api/undici.ts): a
// request loads none of it, 183 -> 178 million instructions for the npm bin's `chambers list`.
const LOADED_ON_FIRST_USE = ['node:child_process', 'node:zlib', 'node:http', 'node:https']

// undici calls node:assert (seven of Node's modules) only as `assert(condition)`, on every
// request: the bundle's assert passes a condition that holds without loading it, and hands a
// failing one, or any property, to Node's.
const LOADED_ON_FAILURE = ['node:assert']

function builtinsPlugin(loadedOnFirstUse) {
  const source = (name) => {
    const builtin = `process.getBuiltinModule(${JSON.stringify(name)})`
    if (loadedOnFirstUse.includes(name)) {
      return `let loaded
        module.exports = Object.create(new Proxy({}, { get: (_, key) => (loaded ??= ${builtin})[key] }))`
    }
    if (LOADED_ON_FAILURE.includes(name)) {
      return `let loaded
        const load = () => (loaded ??= ${builtin})
        module.exports = new Proxy((value, ...rest) => { if (!value) load()(value, ...rest) }, {
          get: (_, key) => load()[key],
        })`
    }
    if (LISTING_LOADS_MODULES.includes(name)) return `module.exports = Object.create(${builtin})`
    return `module.exports = ${builtin}`
  }
  return {
    name: 'builtins',
    setup(build) {
      build.onResolve({ filter: /^[a-z_:/]+$/ }, (args) =>
        isBuiltin(args.path)
          ? {
              path: args.path.startsWith('node:') ? args.path : `node:${args.path}`,
              namespace: 'builtin',
            }
          : undefined,
      )
      build.onLoad({ filter: /.*/, namespace: 'builtin' }, (args) => ({
        contents: source(args.path),
        loader: 'js',
      }))
    },
  }
}

// A V8 startup snapshot cannot hold the sockets of net and tls, nor node:tty, which loads net (and
// which Node does not vouch for in a snapshot): in the snapshot's bundle they are loaded on first
// use, as node:http is in every bundle (LOADED_ON_FIRST_USE). Held by the snapshot,
// net and the modules and bindings it brings (tty's, tcp's, pipe's, c-ares's) made every start
// slower by more than a request gains from them: the binary's --version 1.32x -> 1.16x and
// 1.39x -> 1.24x `node -e 0` without them (medians of 80 and 60 interleaved runs), user and
// system time both lower; its `chambers list` the same within the noise.
const NOT_IN_A_SNAPSHOT = ['node:net', 'node:tls', 'node:tty']

// What the snapshot's bundle loads on first use; package.mjs fails when its warm-up loads
// one of them all the same.
export const SNAPSHOT_LOADS_ON_FIRST_USE = [...LOADED_ON_FIRST_USE, ...NOT_IN_A_SNAPSHOT]

// undici's reads of node:http when it is loaded, moved to when they are needed.
const UNDICI_LOAD_TIME_READS = [
  {
    file: /\/undici\/lib\/core\/util\.js$/,
    edit: (text) =>
      text
        .replace(
          "const { IncomingMessage } = require('node:http')",
          "const http = require('node:http')",
        )
        .replace(/=== IncomingMessage\b/g, '=== http.IncomingMessage'),
    // An undici that reads node:http otherwise must not slip into a bundle unnoticed.
    left: /IncomingMessage }/,
  },
  {
    file: /\/undici\/lib\/dispatcher\/client\.js$/,
    edit: (text) =>
      text.replace(
        /const getDefaultNodeMaxHeaderSize = (http &&[^]*?\n)\n/,
        (_, rule) => `const getDefaultNodeMaxHeaderSize = () => (${rule.trim()})()\n\n`,
      ),
    left: /= http &&/,
  },
]

// undici builds a search tree of the 95 header names it knows (939 nodes) when it is loaded, to
// name a received header without decoding it: every run paid 5 million instructions for it (the
// npm bin's `chambers list`, 191 -> 186 million, callgrind) to save a few decodings an answer.
// Unbuilt, every name is decoded and lower-cased, as undici does for a name the tree lacks.
const UNDICI_HEADER_TREE_UNBUILT = {
  file: /\/undici\/lib\/core\/tree\.js$/,
  edit: (text) =>
    text.replace(
      /\nconst tree = new TernarySearchTree\(\)\n\nfor \(let i = 0; i < wellknownHeaderNames\.length; \+\+i\) \{\n.*\n.*\n\}\n/,
      '\nconst tree = { lookup: () => null }\n',
    ),
  left: /tree\.insert\(/,
}

// Edits to undici's sources as esbuild reads them, written against the one undici package.json
// pins exactly: the build refuses another one installed, an edit that no longer changes its file
// (undici changed), and a bundle of undici in which an edit's file never came up (undici moved it).
function undiciEdits(edits) {
  return {
    name: 'undici-edits',
    setup(build) {
      const applied = new Set()
      let bundled = false
      build.onStart(async () => {
        applied.clear()
        bundled = false
        const pinned = JSON.parse(await readFile(`${root}/package.json`, 'utf8')).devDependencies
          .undici
        const installed = createRequire(`${root}/package.json`)('undici/package.json').version
        if (pinned !== installed) {
          throw new Error(
            `undici ${installed} is installed, package.json pins ${pinned}: the build edits ` +
              'undici, so it takes only the version its edits were written for (src/start/README.md)',
          )
        }
      })
      build.onLoad({ filter: /\/undici\/lib\/.*\.js$/ }, async (args) => {
        bundled = true
        const edit = edits.find(({ file }) => file.test(args.path))
        if (!edit) return undefined
        const text = await readFile(args.path, 'utf8')
        const edited = edit.edit(text)
        if (edited === text || edit.left.test(edited)) {
          throw new Error(`${args.path}: the part of undici this build edits has moved`)
        }
        applied.add(edit)
        return { contents: edited, loader: 'js' }
      })
      build.onEnd((result) => {
        const missed = edits.filter((edit) => !applied.has(edit))
        if (bundled && result.errors.length === 0 && missed.length > 0) {
          throw new Error(`undici has no file ${missed.map(({ file }) => file).join(', ')} to edit`)
        }
      })
    },
  }
}

// The native keyring module (a prebuilt addon per platform) is installed beside the bundle as a
// dependency, not bundled: its dynamic import becomes a require() the bundle makes when a command
// first needs the keyring (a single executable loads its own copy, src/config/keyring.ts).
const keyringAtRunTime = {
  name: 'keyring-at-run-time',
  setup(build) {
    build.onResolve({ filter: /^@napi-rs\/keyring$/ }, (args) =>
      args.namespace === 'keyring-at-run-time'
        ? { path: args.path, external: true }
        : { path: args.path, namespace: 'keyring-at-run-time' },
    )
    build.onLoad({ filter: /.*/, namespace: 'keyring-at-run-time' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)})`,
      loader: 'js',
    }))
  },
}

// `import text from './page.md?raw'`: the file's text, as Vite (and so the tests) reads it. The
// manual is written in Markdown beside the code and bundled into the chunk that prints it. Named by
// its path in the project, which the source map and the metafile carry: an absolute one would ship
// the build machine's directory to users and make builds in two directories differ.
const rawText = {
  name: 'raw-text',
  setup(build) {
    build.onResolve({ filter: /\?raw$/ }, (args) => ({
      path: relative(root, join(args.resolveDir, args.path.slice(0, -'?raw'.length)))
        .split(sep)
        .join('/'),
      namespace: 'raw-text',
    }))
    build.onLoad({ filter: /.*/, namespace: 'raw-text' }, async (args) => {
      const file = join(root, args.path)
      return { contents: await readFile(file, 'utf8'), loader: 'text', watchFiles: [file] }
    })
  },
}

// Also used by the bench, to bundle its undici-only script the way the CLI is bundled.
export const BUNDLE_PLUGINS = [
  withoutHttp2,
  builtinsPlugin(LOADED_ON_FIRST_USE),
  rawText,
  undiciEdits([...UNDICI_LOAD_TIME_READS, UNDICI_HEADER_TREE_UNBUILT]),
]

// How every bundle of the CLI is built (the npm package's in scripts/build.mjs, the single
// executables' in package.mjs; `snapshot` for the one whose main makes a V8 startup snapshot).
export async function bundleOptions({ snapshot = false } = {}) {
  const pkg = JSON.parse(await readFile(`${root}/package.json`, 'utf8'))
  return {
    absWorkingDir: root,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22.13',
    minify: true,
    // The licences travel in THIRD-PARTY-NOTICES.txt; a comment kept in the bundle is one more
    // place a character beyond ASCII can slip in (see assertAscii).
    legalComments: 'none',
    define: {
      __CHAMBERCTL_VERSION__: JSON.stringify(pkg.version),
      // Beside the bundle, see src/io/jq.ts.
      __CHAMBERCTL_JQ_WASM__: JSON.stringify('jq.wasm'),
      // CommonJS has no import.meta: the modules written as ES modules get the bundle's URL.
      'import.meta.url': 'import_meta_url',
    },
    inject: [`${root}/scripts/release/import-meta-url.mjs`],
    outExtension: { '.js': '.cjs' },
    plugins: snapshot
      ? [
          withoutHttp2,
          builtinsPlugin(SNAPSHOT_LOADS_ON_FIRST_USE),
          rawText,
          undiciEdits([...UNDICI_LOAD_TIME_READS, UNDICI_HEADER_TREE_UNBUILT]),
          keyringAtRunTime,
        ]
      : [...BUNDLE_PLUGINS, keyringAtRunTime],
    logLevel: 'warning',
  }
}

// The bundle must be pure ASCII: V8 keeps a script with a single other character as a two-byte
// string, twice the memory (and twice the startup snapshot) and slower to read. esbuild escapes
// strings and identifiers, not regular expressions or comments; the launcher reads the bundle as
// latin1, which only equals UTF-8 for ASCII.
export function assertAscii(bytes, name) {
  const at = bytes.findIndex((byte) => byte > 0x7f)
  if (at === -1) return
  const around = bytes.subarray(Math.max(0, at - 40), at + 40).toString('utf8')
  throw new Error(
    `${name} is not ASCII at byte ${at}: …${around}… (write the character as an escape)`,
  )
}

export const digest = (bytes) => createHash('sha256').update(bytes).digest('hex').slice(0, 16)
