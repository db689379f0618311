// Colour is decided once, from flags and environment, and handed to the writers as a boolean so
// that nothing downstream sniffs process.env or guesses from the stream.
export type ColorInput = {
  env: NodeJS.ProcessEnv
  isTTY: boolean
  // commander's `--no-color` yields false; true or undefined means "not turned off".
  flag?: boolean
}

// https://no-color.org and the FORCE_COLOR convention of supports-color/chalk: an explicit "off"
// (flag, NO_COLOR) beats an explicit "on" (FORCE_COLOR), which beats what the terminal suggests.
export function colorEnabled({ env, isTTY, flag }: ColorInput): boolean {
  if (flag === false) return false
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  const force = env.FORCE_COLOR
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false'
  // A dumb terminal cannot render escape sequences, TTY or not.
  if (env.TERM === 'dumb') return false
  return isTTY
}
