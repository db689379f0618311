// A list read page by page makes garbage that dies young, and keeps a page or two alive across
// each collection of the young generation. V8 widens the young generation whenever the bytes
// that survived add up to its size, doubling it each time: over a million records it grows from
// 1 to 16 MiB a semi-space and stays there, though no more is ever alive than at the start. While
// a walk over several pages runs, the young generation keeps the size it has
// (--semi-space-growth-factor=1, which V8 reads each time it would grow it); the default comes
// back when the last walk ends, so that the code cache written at exit carries the flags it was
// read with (a cache is rejected by a process whose V8 flags differ).
let walks = 0

type V8 = { setFlagsFromString(flags: string): void }
const v8 = () => process.getBuiltinModule('node:v8') as V8

// Held until the function returned is called; walks may overlap.
export function holdYoungGeneration(): () => void {
  if (walks++ === 0) v8().setFlagsFromString('--semi-space-growth-factor=1')
  let released = false
  return () => {
    if (released) return
    released = true
    if (--walks === 0) v8().setFlagsFromString('--semi-space-growth-factor=2')
  }
}
