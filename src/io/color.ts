// Colour is decided once, from flags and environment, and handed to the writers as a boolean so
// that nothing downstream sniffs process.env or guesses from the stream.
import { styleText } from 'node:util'

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

export type Style = 'bold' | 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'blue'
export type Paint = (style: Style | Style[], text: string) => string

// The one way text is coloured: node:util's styleText, built in, so nothing is loaded for it.
// colorEnabled has decided already, for the stream the text goes to, so styleText is not to ask
// process.stdout and the environment again (validateStream: false); without colour, text as it is.
export function painter(color: boolean): Paint {
  if (!color) return (_style, text) => text
  return (style, text) => styleText(style, text, { validateStream: false })
}

// The only other sequences chamberctl writes itself: back to the start of the line and erase it
// (a progress line), and save the cursor's position (DECSC).
export const CLEAR_LINE = '\r\u001b[2K'
export const SAVE_CURSOR = '\u001b7'
