// `npm run release [-- --packaged] [-- --base-url URL]`: everything a release publishes, into
// release/ (RELEASING.md says what each file is for and how it is published):
//
// - per platform an archive named as GoReleaser names them, chamberctl_<version>_<os>_<arch>
//   (.tar.gz, .zip for Windows), holding the single executable, LICENSE, THIRD-PARTY-NOTICES.txt,
//   README.md, the man page and the completion scripts;
// - the npm tarball (`npm pack`, which builds through the package's prepack);
// - .deb packages for linux amd64 and arm64 (dpkg-deb) and .rpm packages (rpmbuild);
// - a Homebrew formula, a Scoop manifest and WinGet manifests, from the archives' hashes and the
//   release's download URL (--base-url);
// - a CycloneDX SBOM of the bundle (@cyclonedx/cyclonedx-esbuild, from esbuild's metafile);
// - SHA256SUMS over every file.
//
// Every file is made from the sources alone: the times in it are SOURCE_DATE_EPOCH (the last
// commit's, unless set), its owners root, its order sorted, so that two builds in two directories
// give the same bytes (but for the host binary's V8 startup snapshot, RELEASING.md).
//
// The executables are package.mjs's: built here, or with --packaged taken from the
// release/ that `npm run package` just wrote (CI builds them once for its tests and this).
import { execFile, execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { availableParallelism } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs, promisify } from 'node:util'
import { build } from 'esbuild'
import { cyclonedxEsbuildPlugin } from '@cyclonedx/cyclonedx-esbuild'
import pLimit from 'p-limit'
import { stringify } from 'yaml'
import { COMPLETION_FILES } from '../build.mjs'
import { bundleOptions } from './bundle.mjs'
import { packageBinaries, TARGETS } from './package.mjs'

const root = fileURLToPath(new URL('../..', import.meta.url))
const release = path.join(root, 'release')
const stage = path.join(release, '.stage')
const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'))
const { version } = pkg
const FORGE = pkg.repository.url.replace(/^git\+/, '').replace(/\.git$/, '')

const { values: options } = parseArgs({
  options: {
    packaged: { type: 'boolean', default: false },
    'base-url': { type: 'string', default: `${FORGE}/releases/download/v${version}` },
  },
})
const baseUrl = options['base-url'].replace(/\/+$/, '')

const OS = { linux: 'linux', darwin: 'darwin', win32: 'windows' }
const ARCH = { x64: 'amd64', arm64: 'arm64' }
const DEB_ARCH = { x64: 'amd64', arm64: 'arm64' }
const RPM_ARCH = { x64: 'x86_64', arm64: 'aarch64' }

const sde = Number(
  process.env.SOURCE_DATE_EPOCH ||
    execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim(),
)
if (!Number.isInteger(sde) || sde <= 0) throw new Error(`SOURCE_DATE_EPOCH is not a time: ${sde}`)
// dpkg-deb, rpmbuild, gzip's callers and the children below all read it.
const env = { ...process.env, SOURCE_DATE_EPOCH: String(sde), TZ: 'UTC', LC_ALL: 'C' }
// The compressors run side by side, one a core.
const run = async (cmd, args, opts = {}) =>
  (await promisify(execFile)(cmd, args, { env, maxBuffer: 1 << 26, ...opts })).stdout

const sha256 = (file) => createHash('sha256').update(readFileSync(file)).digest('hex')
const MB = (file) => `${(statSync(file).size / 1e6).toFixed(1)} MB`

// The completion scripts, every shell's: PowerShell's is on its way (completion powershell);
// until completions/ has it a release outside CI goes without it, and CI fails.
function completionFiles() {
  const files = { ...COMPLETION_FILES }
  const ps1 = (name) => name.endsWith('.ps1')
  if (!Object.values(files).some(ps1)) {
    // Written beside the others, whether or not the build lists it.
    const written = readdirSync(path.join(root, 'completions')).find(ps1)
    if (written) files.powershell = written
  }
  if (!Object.values(files).some(ps1)) {
    const message = 'no PowerShell completion script in COMPLETION_FILES (completions/*.ps1)'
    if (process.env.CI) throw new Error(message)
    console.warn(`warning: ${message}; the archives go without it`)
  }
  for (const file of Object.values(files)) {
    if (!existsSync(path.join(root, 'completions', file))) {
      throw new Error(`completions/${file} is missing: npm run build writes it`)
    }
  }
  return files
}

// A directory's files, relative, sorted: the order every archive lists them in.
function filesUnder(dir, prefix = '') {
  return readdirSync(path.join(dir, prefix), { withFileTypes: true })
    .flatMap((entry) => {
      const name = path.posix.join(prefix, entry.name)
      return entry.isDirectory() ? filesUnder(dir, name) : [name]
    })
    .sort()
}

// Modes and times that do not depend on the umask or the clock of the machine that built them.
function normalise(dir, executables) {
  for (const name of filesUnder(dir)) {
    const file = path.join(dir, name)
    chmodSync(file, executables.includes(name) ? 0o755 : 0o644)
    utimesSync(file, sde, sde)
  }
  const dirs = (prefix) =>
    readdirSync(path.join(dir, prefix), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .flatMap((entry) => [...dirs(path.join(prefix, entry.name)), path.join(prefix, entry.name)])
  for (const sub of [...dirs(''), '']) {
    chmodSync(path.join(dir, sub), 0o755)
    utimesSync(path.join(dir, sub), sde, sde)
  }
}

function place(from, to) {
  mkdirSync(path.dirname(to), { recursive: true })
  copyFileSync(from, to)
}

// One platform's archive: the files at its top, as GoReleaser lays them out.
async function archive(target, binaries, completions) {
  const base = `chamberctl_${version}_${OS[target.platform]}_${ARCH[target.arch]}`
  const dir = path.join(stage, base)
  const exe = target.platform === 'win32' ? 'chamberctl.exe' : 'chamberctl'
  place(path.join(binaries, path.basename(target.output)), path.join(dir, exe))
  place(path.join(binaries, 'LICENSE'), path.join(dir, 'LICENSE'))
  place(path.join(binaries, 'THIRD-PARTY-NOTICES.txt'), path.join(dir, 'THIRD-PARTY-NOTICES.txt'))
  place(path.join(root, 'README.md'), path.join(dir, 'README.md'))
  place(path.join(root, 'man/chamberctl.1'), path.join(dir, 'man/chamberctl.1'))
  for (const file of Object.values(completions)) {
    place(path.join(root, 'completions', file), path.join(dir, 'completions', file))
  }
  normalise(dir, [exe])
  const files = filesUnder(dir)
  if (target.platform === 'win32') {
    const out = path.join(release, `${base}.zip`)
    // -X: no uid/gid or extra time fields; -D: no directory entries; times are read in UTC (env).
    await run('zip', ['-X', '-D', '-6', '-q', out, ...files], { cwd: dir })
    return out
  }
  const tar = path.join(stage, `${base}.tar`)
  await run('tar', [
    '--create',
    `--file=${tar}`,
    '--format=ustar',
    '--sort=name',
    `--mtime=@${sde}`,
    '--owner=0',
    '--group=0',
    '--numeric-owner',
    `--directory=${dir}`,
    ...files,
  ])
  // -n: no name or time in the gzip header. -9 makes the executables' archives 0.7% smaller
  // than the default -6, in four times the time.
  await run('gzip', ['-n', '-6', tar])
  const out = path.join(release, `${base}.tar.gz`)
  renameSync(`${tar}.gz`, out)
  return out
}

// The files of the Linux packages, where Debian's (and Fedora's) bash-completion, zsh and fish
// look for them.
async function packageTree(dir, binary, binaries, completions) {
  place(binary, path.join(dir, 'usr/bin/chamberctl'))
  place(path.join(root, 'man/chamberctl.1'), path.join(dir, 'usr/share/man/man1/chamberctl.1'))
  await run('gzip', ['-n', '-9', path.join(dir, 'usr/share/man/man1/chamberctl.1')])
  const share = path.join(dir, 'usr/share')
  const from = (shell) => path.join(root, 'completions', completions[shell])
  place(from('bash'), path.join(share, 'bash-completion/completions/chamberctl'))
  place(from('zsh'), path.join(share, 'zsh/vendor-completions/_chamberctl'))
  place(from('fish'), path.join(share, 'fish/vendor_completions.d/chamberctl.fish'))
  const doc = path.join(share, 'doc/chamberctl')
  place(path.join(binaries, 'THIRD-PARTY-NOTICES.txt'), path.join(doc, 'THIRD-PARTY-NOTICES.txt'))
  // Debian's machine-readable copyright file (DEP-5).
  mkdirSync(doc, { recursive: true })
  writeFileSync(
    path.join(doc, 'copyright'),
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: chamberctl',
      `Source: ${FORGE}`,
      '',
      'Files: *',
      `Copyright: ${licenceHolder()}`,
      'License: MIT',
      'Comment: /usr/bin/chamberctl embeds Node.js and the packages listed, each with its',
      ' licence, in /usr/share/doc/chamberctl/THIRD-PARTY-NOTICES.txt.',
      '',
      'License: MIT',
      ...licenceBody()
        .split('\n')
        .map((line) => (line.trim() ? ` ${line}` : ' .')),
      '',
    ].join('\n'),
  )
}

const licenceText = () => readFileSync(path.join(root, 'LICENSE'), 'utf8')
// "Copyright (c) YEAR NAME" on the licence's first lines, the permission notice after them.
const licenceHolder = () =>
  /^Copyright (?:\(c\) )?(.+)$/im.exec(licenceText())?.[1] ?? 'the chamberctl authors'
const licenceBody = () =>
  licenceText()
    .replace(/^[^]*?\n\n(?=Permission)/, '')
    .trim()

const DESCRIPTION = pkg.description
const LONG_DESCRIPTION = [
  'chamberctl administers and queries a chamber directory service (chambers, their',
  'members and events) over its JSON HTTP API, for admins at a terminal, shell scripts',
  'and CI jobs. It embeds a sandbox: a complete local reference server of the API.',
]
const MAINTAINER = `chamberctl maintainers <chamberctl@users.noreply.github.com>`

async function deb(target, binaries, completions) {
  const dir = path.join(stage, `deb-${target.arch}`)
  await packageTree(dir, path.join(binaries, path.basename(target.output)), binaries, completions)
  const installedKiB = filesUnder(dir).reduce(
    (sum, name) => sum + Math.ceil(statSync(path.join(dir, name)).size / 1024),
    0,
  )
  mkdirSync(path.join(dir, 'DEBIAN'))
  writeFileSync(
    path.join(dir, 'DEBIAN/control'),
    [
      'Package: chamberctl',
      `Version: ${version}`,
      `Architecture: ${DEB_ARCH[target.arch]}`,
      `Maintainer: ${MAINTAINER}`,
      `Installed-Size: ${installedKiB}`,
      // Node's own libraries: the C and C++ runtimes and libatomic.
      'Depends: libc6 (>= 2.28), libstdc++6, libgcc-s1, libatomic1',
      'Section: utils',
      'Priority: optional',
      `Homepage: ${FORGE}`,
      `Description: ${DESCRIPTION}`,
      ...LONG_DESCRIPTION.map((line) => ` ${line}`),
      '',
    ].join('\n'),
  )
  normalise(dir, ['usr/bin/chamberctl'])
  const out = path.join(release, `chamberctl_${version}_${DEB_ARCH[target.arch]}.deb`)
  // xz at level 1: 22% smaller than gzip's default in about the same time (level 6, the default,
  // takes five times as long); one thread, whose output does not depend on the machine's cores.
  await run('dpkg-deb', [
    '--root-owner-group',
    '-Zxz',
    '-z1',
    '--threads-max=1',
    '--build',
    dir,
    out,
  ])
  return out
}

// rpmbuild packs a tree it is given (%install copies it): no compiler, no stripping (it would cut
// the executable's appended bundle off), no automatic dependencies, and the reproducible-build
// macros of rpm 4.14+ (times from SOURCE_DATE_EPOCH, a fixed build host).
async function rpm(target, binaries, completions) {
  const top = path.join(stage, `rpm-${target.arch}`)
  const tree = path.join(top, 'SOURCES/tree')
  await packageTree(tree, path.join(binaries, path.basename(target.output)), binaries, completions)
  normalise(tree, ['usr/bin/chamberctl'])
  const spec = path.join(top, 'chamberctl.spec')
  mkdirSync(path.dirname(spec), { recursive: true })
  writeFileSync(
    spec,
    [
      'Name: chamberctl',
      `Version: ${version}`,
      'Release: 1',
      `Summary: ${DESCRIPTION}`,
      'License: MIT',
      `URL: ${FORGE}`,
      'AutoReqProv: no',
      'Requires: glibc >= 2.28, libstdc++, libgcc, libatomic',
      '%global debug_package %{nil}',
      '%global __os_install_post %{nil}',
      '%global __brp_strip %{nil}',
      '',
      '%description',
      ...LONG_DESCRIPTION,
      '',
      '%install',
      'cp -a %{_sourcedir}/tree/. %{buildroot}/',
      '',
      '%files',
      '%attr(0755, root, root) /usr/bin/chamberctl',
      '/usr/share/man/man1/chamberctl.1.gz',
      '/usr/share/bash-completion/completions/chamberctl',
      '/usr/share/zsh/vendor-completions/_chamberctl',
      '/usr/share/fish/vendor_completions.d/chamberctl.fish',
      '%license /usr/share/doc/chamberctl/copyright',
      '%doc /usr/share/doc/chamberctl/THIRD-PARTY-NOTICES.txt',
      '',
    ].join('\n'),
  )
  const define = (name, value) => ['--define', `${name} ${value}`]
  await run('rpmbuild', [
    '-bb',
    '--quiet',
    `--target=${RPM_ARCH[target.arch]}-linux`,
    ...define('_topdir', top),
    ...define('_sourcedir', path.join(top, 'SOURCES')),
    ...define('_buildhost', 'reproducible'),
    ...define('use_source_date_epoch_as_buildtime', '1'),
    ...define('clamp_mtime_to_source_date_epoch', '1'),
    ...define('_build_id_links', 'none'),
    ...define('_binary_payload', 'w1.xzdio'),
    spec,
  ])
  const name = `chamberctl-${version}-1.${RPM_ARCH[target.arch]}.rpm`
  const out = path.join(release, name)
  renameSync(path.join(top, 'RPMS', RPM_ARCH[target.arch], name), out)
  return out
}

async function npmTarball() {
  const output = await run('npm', ['pack', '--silent', '--pack-destination', release], {
    cwd: root,
  })
  return path.join(release, output.trim().split('\n').pop())
}

// The SBOM of what the bundle holds: the npm package's bundle, which the executables carry too
// (RELEASING.md: what they embed besides is in THIRD-PARTY-NOTICES.txt).
async function sbom() {
  const out = path.join(release, `chamberctl_${version}.cdx.json`)
  const options = await bundleOptions()
  await build({
    ...options,
    entryPoints: { chamberctl: 'src/cli/main.ts' },
    outdir: path.join(stage, 'sbom'),
    write: false,
    metafile: true,
    plugins: [
      ...options.plugins,
      cyclonedxEsbuildPlugin({
        specVersion: '1.6',
        outputFile: out,
        outputReproducible: true,
        validate: true,
      }),
    ],
  })
  return out
}

// --- The package managers' manifests -----------------------------------------------------------

const url = (file) => `${baseUrl}/${path.basename(file)}`

function homebrewFormula(archives) {
  const block = (os, arch) => {
    const file = archives.find((a) => a.os === os && a.arch === arch).file
    return [`      url "${url(file)}"`, `      sha256 "${sha256(file)}"`]
  }
  const lines = [
    '# Generated by scripts/release/release.mjs: the tap takes it as it is.',
    'class Chamberctl < Formula',
    `  desc "${DESCRIPTION}"`,
    `  homepage "${FORGE}"`,
    `  version "${version}"`,
    `  license "${pkg.license}"`,
    '',
  ]
  for (const [os, block_] of [
    ['darwin', 'on_macos'],
    ['linux', 'on_linux'],
  ]) {
    lines.push(`  ${block_} do`)
    lines.push('    on_arm do', ...block(os, 'arm64'), '    end')
    lines.push('    on_intel do', ...block(os, 'amd64'), '    end')
    lines.push('  end', '')
  }
  lines.push(
    '  def install',
    '    bin.install "chamberctl"',
    '    man1.install "man/chamberctl.1"',
    '    bash_completion.install "completions/chamberctl.bash" => "chamberctl"',
    '    zsh_completion.install "completions/_chamberctl"',
    '    fish_completion.install "completions/chamberctl.fish"',
    '  end',
    '',
    '  test do',
    '    assert_match version.to_s, shell_output("#{bin}/chamberctl --version")',
    '  end',
    'end',
    '',
  )
  const out = path.join(release, 'chamberctl.rb')
  writeFileSync(out, lines.join('\n'))
  return out
}

function scoopManifest(zip) {
  const out = path.join(release, 'chamberctl.json')
  const manifest = {
    version,
    description: DESCRIPTION,
    homepage: FORGE,
    license: pkg.license,
    architecture: { '64bit': { url: url(zip), hash: sha256(zip) } },
    bin: 'chamberctl.exe',
  }
  writeFileSync(out, `${JSON.stringify(manifest, null, 2)}\n`)
  return out
}

// WinGet's multi-file manifest (version, installer, defaultLocale), schema 1.10.0: the zip, with
// the executable in it installed as a portable command.
const WINGET_ID = 'Chamberctl.Chamberctl'
function wingetManifests(zip) {
  const common = { PackageIdentifier: WINGET_ID, PackageVersion: version }
  const manifests = {
    [`${WINGET_ID}.yaml`]: {
      ...common,
      DefaultLocale: 'en-US',
      ManifestType: 'version',
      ManifestVersion: '1.10.0',
    },
    [`${WINGET_ID}.installer.yaml`]: {
      ...common,
      InstallerType: 'zip',
      NestedInstallerType: 'portable',
      NestedInstallerFiles: [
        { RelativeFilePath: 'chamberctl.exe', PortableCommandAlias: 'chamberctl' },
      ],
      ReleaseDate: new Date(sde * 1000).toISOString().slice(0, 10),
      Installers: [
        {
          Architecture: 'x64',
          InstallerUrl: url(zip),
          InstallerSha256: sha256(zip).toUpperCase(),
        },
      ],
      ManifestType: 'installer',
      ManifestVersion: '1.10.0',
    },
    [`${WINGET_ID}.locale.en-US.yaml`]: {
      ...common,
      PackageLocale: 'en-US',
      Publisher: 'chamberctl',
      PublisherUrl: FORGE,
      PublisherSupportUrl: pkg.bugs.url,
      PackageName: 'chamberctl',
      PackageUrl: FORGE,
      License: pkg.license,
      LicenseUrl: `${FORGE}/blob/v${version}/LICENSE`,
      ShortDescription: DESCRIPTION,
      Moniker: 'chamberctl',
      Tags: pkg.keywords,
      ManifestType: 'defaultLocale',
      ManifestVersion: '1.10.0',
    },
  }
  return Object.entries(manifests).map(([name, manifest]) => {
    const type = manifest.ManifestType === 'defaultLocale' ? 'defaultLocale' : manifest.ManifestType
    const out = path.join(release, name)
    writeFileSync(
      out,
      `# yaml-language-server: $schema=https://aka.ms/winget-manifest.${type}.1.10.0.schema.json\n` +
        stringify(manifest),
    )
    return out
  })
}

export async function makeRelease() {
  const started = performance.now()
  const completions = completionFiles()
  if (!options.packaged) await packageBinaries()
  // package.mjs's files, checked against its sums and moved aside: the release publishes them in
  // the archives.
  const binaries = path.join(stage, 'binaries')
  rmSync(stage, { recursive: true, force: true })
  mkdirSync(binaries, { recursive: true })
  const packaged = readFileSync(path.join(release, 'SHA256SUMS'), 'utf8').trim().split('\n')
  for (const line of packaged) {
    const [sum, name] = line.split(/ +/)
    if (sha256(path.join(release, name)) !== sum) throw new Error(`release/${name}: wrong sum`)
    renameSync(path.join(release, name), path.join(binaries, name))
  }
  rmSync(path.join(release, 'SHA256SUMS'))
  const leftover = readdirSync(release).filter((name) => name !== '.stage')
  if (leftover.length > 0)
    throw new Error(`release/ holds more than npm run package wrote: ${leftover}`)

  const targets = TARGETS.map((target) => ({
    ...target,
    output: `chamberctl-${target.name}${target.platform === 'win32' ? '.exe' : ''}`,
    os: OS[target.platform],
    goArch: ARCH[target.arch],
  }))
  const limit = pLimit(availableParallelism())
  const timed = (make) =>
    limit(async () => {
      const t0 = performance.now()
      const out = await make()
      const seconds = ((performance.now() - t0) / 1000).toFixed(1)
      console.log(`${path.basename(out)}: ${MB(out)} (${seconds} s)`)
      return out
    })
  const linux = targets.filter((t) => t.platform === 'linux')
  const [archiveFiles] = await Promise.all([
    Promise.all(targets.map((target) => timed(() => archive(target, binaries, completions)))),
    ...linux.map((target) => timed(() => deb(target, binaries, completions))),
    ...linux.map((target) => timed(() => rpm(target, binaries, completions))),
    timed(npmTarball),
    timed(sbom),
  ])
  const archives = targets.map((target, i) => ({
    os: target.os,
    arch: target.goArch,
    file: archiveFiles[i],
  }))
  const zip = archives.find((a) => a.os === 'windows').file
  homebrewFormula(archives)
  scoopManifest(zip)
  wingetManifests(zip)

  rmSync(stage, { recursive: true, force: true })
  const files = readdirSync(release).sort()
  writeFileSync(
    path.join(release, 'SHA256SUMS'),
    files.map((name) => `${sha256(path.join(release, name))}  ${name}\n`).join(''),
  )
  const total = files.reduce((sum, name) => sum + statSync(path.join(release, name)).size, 0)
  console.log(
    `release/: ${files.length + 1} files, ${(total / 1e6).toFixed(1)} MB, in ` +
      `${((performance.now() - started) / 1000).toFixed(1)} s (SOURCE_DATE_EPOCH=${sde})`,
  )
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await makeRelease()
