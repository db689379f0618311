declare const __CHAMBERCTL_VERSION__: string | undefined

// Set by the build from package.json; tests that run the sources see the fallback.
export const VERSION =
  typeof __CHAMBERCTL_VERSION__ === 'string' ? __CHAMBERCTL_VERSION__ : '0.0.0-source'
