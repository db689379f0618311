// Text files imported whole (the manual's Markdown): esbuild's text loader in the build, Vite's
// ?raw in the tests.
declare module '*.md?raw' {
  const text: string
  export default text
}
