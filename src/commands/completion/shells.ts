// The shells `chamberctl completion` writes scripts for.
export const SHELLS = ['bash', 'zsh', 'fish', 'powershell'] as const
export type Shell = (typeof SHELLS)[number]
