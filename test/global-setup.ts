// End-to-end tests run the built CLI; build it once so they never test a stale dist/.
// @ts-expect-error: a plain ESM script without type declarations
import { buildCli } from '../scripts/build.mjs'

export default async function setup(): Promise<void> {
  await buildCli()
}
