// The ad-hoc signature `npm run package` gives the macOS binaries (scripts/release/macho-sign.mjs),
// read back here by a reader of the format of its own: a small Mach-O executable, signed, must name
// its signature in LC_CODE_SIGNATURE at the end of __LINKEDIT, and hash every 4 KiB page before it.
import { createHash } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ESM script without type declarations
import { adHocSign } from '../../scripts/release/macho-sign.mjs'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

const TEXT_SIZE = 0x4000
const LINKEDIT_SIZE = 0x2345

// An arm64 executable: __TEXT with one section (at 0x1000) and __LINKEDIT after it, the layout a
// linker leaves; its bytes are a fixed pattern.
function machO(): Buffer {
  const file = Buffer.alloc(TEXT_SIZE + LINKEDIT_SIZE)
  for (let i = 256; i < file.length; i++) file[i] = (i * 31) & 0xff
  file.fill(0, 32, 0x1000)
  file.writeUInt32LE(0xfeedfacf, 0)
  file.writeUInt32LE(0x0100000c, 4) // arm64
  file.writeUInt32LE(2, 12) // MH_EXECUTE
  file.writeUInt32LE(2, 16)
  file.writeUInt32LE(152 + 72, 20)
  const segment = (at: number, name: string, offset: number, size: number, sections: number) => {
    file.writeUInt32LE(0x19, at)
    file.writeUInt32LE(72 + sections * 80, at + 4)
    file.write(name, at + 8, 'latin1')
    file.writeBigUInt64LE(BigInt(0x100000000 + offset), at + 24)
    file.writeBigUInt64LE(BigInt(Math.ceil(size / 0x4000) * 0x4000), at + 32)
    file.writeBigUInt64LE(BigInt(offset), at + 40)
    file.writeBigUInt64LE(BigInt(size), at + 48)
    file.writeUInt32LE(sections, at + 64)
  }
  segment(32, '__TEXT', 0, TEXT_SIZE, 1)
  file.write('__text', 32 + 72, 'latin1')
  file.write('__TEXT', 32 + 72 + 16, 'latin1')
  file.writeUInt32LE(0x1000, 32 + 72 + 48)
  segment(32 + 152, '__LINKEDIT', TEXT_SIZE, LINKEDIT_SIZE, 0)
  return file
}

type Command = { cmd: number; at: number; name: string }

function commands(file: Buffer): Command[] {
  const found: Command[] = []
  let at = 32
  for (let i = 0; i < file.readUInt32LE(16); i++) {
    const cmd = file.readUInt32LE(at)
    const name = cmd === 0x19 ? file.toString('latin1', at + 8, at + 24).replace(/\0+$/, '') : ''
    found.push({ cmd, at, name })
    at += file.readUInt32LE(at + 4)
  }
  return found
}

function signed(id: string, times = 1): Buffer {
  const dir = mkdtempSync(path.join(tmpdir(), 'chamberctl-macho-'))
  dirs.push(dir)
  const file = path.join(dir, 'chamberctl')
  writeFileSync(file, machO())
  for (let i = 0; i < times; i++) adHocSign(file, id)
  return readFileSync(file)
}

describe('the ad-hoc Mach-O signature', () => {
  it('is the last thing in __LINKEDIT and hashes every page before it', () => {
    const file = signed('chamberctl-darwin-arm64')
    const all = commands(file)
    const signature = all.find((c) => c.cmd === 0x1d)!
    expect(signature).toBeDefined()
    const dataoff = file.readUInt32LE(signature.at + 8)
    const datasize = file.readUInt32LE(signature.at + 12)
    expect(dataoff % 16).toBe(0)
    expect(dataoff).toBeGreaterThanOrEqual(TEXT_SIZE + LINKEDIT_SIZE)
    expect(dataoff + datasize).toBe(file.length)
    const linkedit = all.find((c) => c.name === '__LINKEDIT')!
    const linkeditEnd =
      Number(file.readBigUInt64LE(linkedit.at + 40)) +
      Number(file.readBigUInt64LE(linkedit.at + 48))
    expect(linkeditEnd).toBe(file.length)
    expect(Number(file.readBigUInt64LE(linkedit.at + 32))).toBeGreaterThanOrEqual(
      file.length - TEXT_SIZE,
    )

    // SuperBlob (big-endian) → one CodeDirectory.
    const blob = file.subarray(dataoff)
    expect(blob.readUInt32BE(0)).toBe(0xfade0cc0)
    expect(blob.readUInt32BE(4)).toBe(datasize)
    expect(blob.readUInt32BE(8)).toBe(1)
    const cd = blob.subarray(blob.readUInt32BE(16))
    expect(cd.readUInt32BE(0)).toBe(0xfade0c02)
    expect(cd.readUInt32BE(12) & 0x2).toBe(0x2) // adhoc
    const identifier = cd.toString(
      'latin1',
      cd.readUInt32BE(20),
      cd.indexOf(0, cd.readUInt32BE(20)),
    )
    expect(identifier).toBe('chamberctl-darwin-arm64')
    const slots = cd.readUInt32BE(28)
    expect(cd.readUInt32BE(32)).toBe(dataoff) // code limit
    expect(slots).toBe(Math.ceil(dataoff / 4096))
    expect(cd[36]).toBe(32) // SHA-256
    expect(cd[39]).toBe(12) // 4 KiB pages
    expect(Number(cd.readBigUInt64BE(72))).toBe(TEXT_SIZE) // __TEXT's size
    const hashes = cd.readUInt32BE(16)
    for (let page = 0; page < slots; page++) {
      const bytes = file.subarray(page * 4096, Math.min((page + 1) * 4096, dataoff))
      const expected = createHash('sha256').update(bytes).digest('hex')
      expect(cd.toString('hex', hashes + page * 32, hashes + (page + 1) * 32), `page ${page}`).toBe(
        expected,
      )
    }

    // The code itself is unchanged, and the header counts the one new command.
    expect(file.subarray(0x1000, TEXT_SIZE + LINKEDIT_SIZE).equals(machO().subarray(0x1000))).toBe(
      true,
    )
    expect(file.readUInt32LE(16)).toBe(3)
  })

  it('replaces a signature already there rather than adding a second', () => {
    const once = signed('chamberctl-darwin-x64')
    const twice = signed('chamberctl-darwin-x64', 2)
    expect(commands(twice).filter((c) => c.cmd === 0x1d)).toHaveLength(1)
    expect(twice.equals(once)).toBe(true)
  })
})
