// An ad-hoc code signature for a thin 64-bit Mach-O executable, as Go's linker writes one
// (golang/go src/cmd/internal/codesign/codesign.go): a SuperBlob holding one CodeDirectory
// (version 0x20400, flags adhoc | linker-signed, a SHA-256 hash per 4 KiB page of everything
// before the signature), placed at the end of __LINKEDIT and named by LC_CODE_SIGNATURE. Apple
// silicon refuses to run arm64 code without a signature, and no npm package or Debian tool here
// writes one; a Mac's `codesign --sign -` gives the same kind. This is no Developer ID signature:
// Gatekeeper still asks about a downloaded file that is not notarized.
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'

const MH_MAGIC_64 = 0xfeedfacf
const LC_SEGMENT_64 = 0x19
const LC_CODE_SIGNATURE = 0x1d
const HEADER_SIZE = 32
const LINKEDIT_COMMAND_SIZE = 16

const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0
const CSMAGIC_CODEDIRECTORY = 0xfade0c02
const CSSLOT_CODEDIRECTORY = 0
const CS_ADHOC = 0x2
const CS_LINKER_SIGNED = 0x20000
const CS_HASHTYPE_SHA256 = 2
const CS_EXECSEG_MAIN_BINARY = 0x1
const SUPER_BLOB_SIZE = 12
const BLOB_INDEX_SIZE = 8
const CODE_DIRECTORY_SIZE = 88
const PAGE_BITS = 12
const PAGE_SIZE = 1 << PAGE_BITS
const HASH_SIZE = 32
// The segment granularity of arm64 macOS (16 KiB), a multiple of x86-64's (4 KiB).
const VM_PAGE = 0x4000

const align = (value, to) => Math.ceil(value / to) * to

function loadCommands(file) {
  if (file.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a thin 64-bit Mach-O file')
  const count = file.readUInt32LE(16)
  const commands = []
  for (let i = 0, offset = HEADER_SIZE; i < count; i++) {
    const cmd = file.readUInt32LE(offset)
    const size = file.readUInt32LE(offset + 4)
    const name =
      cmd === LC_SEGMENT_64
        ? file.toString('latin1', offset + 8, offset + 24).replace(/\0+$/, '')
        : ''
    commands.push({ cmd, offset, size, name })
    offset += size
  }
  return commands
}

// The signature's size for `codeSize` bytes of code and the identifier `id`.
function signatureSize(codeSize, id) {
  const pages = Math.ceil(codeSize / PAGE_SIZE)
  return SUPER_BLOB_SIZE + BLOB_INDEX_SIZE + CODE_DIRECTORY_SIZE + id.length + 1 + pages * HASH_SIZE
}

export function adHocSignature(code, id, textOffset, textSize) {
  const pages = Math.ceil(code.length / PAGE_SIZE)
  const size = signatureSize(code.length, id)
  const blob = Buffer.alloc(size)
  blob.writeUInt32BE(CSMAGIC_EMBEDDED_SIGNATURE, 0)
  blob.writeUInt32BE(size, 4)
  blob.writeUInt32BE(1, 8)
  blob.writeUInt32BE(CSSLOT_CODEDIRECTORY, 12)
  blob.writeUInt32BE(SUPER_BLOB_SIZE + BLOB_INDEX_SIZE, 16)
  const cd = SUPER_BLOB_SIZE + BLOB_INDEX_SIZE
  const identOffset = CODE_DIRECTORY_SIZE
  const hashOffset = identOffset + id.length + 1
  blob.writeUInt32BE(CSMAGIC_CODEDIRECTORY, cd)
  blob.writeUInt32BE(size - cd, cd + 4)
  blob.writeUInt32BE(0x20400, cd + 8)
  blob.writeUInt32BE(CS_ADHOC | CS_LINKER_SIGNED, cd + 12)
  blob.writeUInt32BE(hashOffset, cd + 16)
  blob.writeUInt32BE(identOffset, cd + 20)
  blob.writeUInt32BE(0, cd + 24) // special slots
  blob.writeUInt32BE(pages, cd + 28)
  blob.writeUInt32BE(code.length, cd + 32) // code limit
  blob.writeUInt8(HASH_SIZE, cd + 36)
  blob.writeUInt8(CS_HASHTYPE_SHA256, cd + 37)
  blob.writeUInt8(PAGE_BITS, cd + 39)
  // scatter, team id, spare, 64-bit code limit: zero.
  blob.writeBigUInt64BE(BigInt(textOffset), cd + 64)
  blob.writeBigUInt64BE(BigInt(textSize), cd + 72)
  blob.writeBigUInt64BE(BigInt(CS_EXECSEG_MAIN_BINARY), cd + 80)
  blob.write(id, cd + identOffset, 'latin1')
  for (let page = 0; page < pages; page++) {
    const start = page * PAGE_SIZE
    createHash('sha256')
      .update(code.subarray(start, Math.min(start + PAGE_SIZE, code.length)))
      .digest()
      .copy(blob, cd + hashOffset + page * HASH_SIZE)
  }
  return blob
}

// Signs `path` in place; `id` is the identifier the signature carries (codesign uses the name).
export function adHocSign(path, id) {
  const file = readFileSync(path)
  const commands = loadCommands(file)
  const text = commands.find((c) => c.name === '__TEXT')
  const linkedit = commands.find((c) => c.name === '__LINKEDIT')
  if (!text || !linkedit) throw new Error(`${path}: no __TEXT or __LINKEDIT segment`)
  const linkeditOffset = Number(file.readBigUInt64LE(linkedit.offset + 40))
  let linkeditEnd = linkeditOffset + Number(file.readBigUInt64LE(linkedit.offset + 48))
  if (linkeditEnd !== file.length) throw new Error(`${path}: __LINKEDIT is not at the end`)

  let signature = commands.find((c) => c.cmd === LC_CODE_SIGNATURE)
  if (signature) {
    // A signature already there (the last thing in __LINKEDIT) is replaced.
    linkeditEnd = file.readUInt32LE(signature.offset + 8)
  } else {
    const commandsEnd = HEADER_SIZE + file.readUInt32LE(20)
    const firstSection = firstSectionOffset(file, commands)
    if (commandsEnd + LINKEDIT_COMMAND_SIZE > firstSection) {
      throw new Error(`${path}: no room for LC_CODE_SIGNATURE among the load commands`)
    }
    file.writeUInt32LE(LC_CODE_SIGNATURE, commandsEnd)
    file.writeUInt32LE(LINKEDIT_COMMAND_SIZE, commandsEnd + 4)
    file.writeUInt32LE(file.readUInt32LE(16) + 1, 16)
    file.writeUInt32LE(file.readUInt32LE(20) + LINKEDIT_COMMAND_SIZE, 20)
    signature = { offset: commandsEnd }
  }
  const signatureOffset = align(linkeditEnd, 16)
  const size = signatureSize(signatureOffset, id)
  file.writeUInt32LE(signatureOffset, signature.offset + 8)
  file.writeUInt32LE(size, signature.offset + 12)
  const linkeditSize = signatureOffset + size - linkeditOffset
  file.writeBigUInt64LE(BigInt(align(linkeditSize, VM_PAGE)), linkedit.offset + 32) // vmsize
  file.writeBigUInt64LE(BigInt(linkeditSize), linkedit.offset + 48) // filesize

  const code = Buffer.alloc(signatureOffset)
  file.copy(code, 0, 0, Math.min(linkeditEnd, file.length))
  const textOffset = Number(code.readBigUInt64LE(text.offset + 40))
  const textSize = Number(code.readBigUInt64LE(text.offset + 48))
  writeFileSync(path, Buffer.concat([code, adHocSignature(code, id, textOffset, textSize)]))
}

function firstSectionOffset(file, commands) {
  let first = Infinity
  for (const segment of commands.filter((c) => c.cmd === LC_SEGMENT_64)) {
    const sections = file.readUInt32LE(segment.offset + 64)
    for (let i = 0; i < sections; i++) {
      const section = segment.offset + 72 + i * 80
      const offset = file.readUInt32LE(section + 48)
      // Zero-fill sections (bss) have no bytes in the file.
      if (offset > 0) first = Math.min(first, offset)
    }
  }
  return first
}
