// fast-check as every property test imports it (never 'fast-check' itself; a test checks that).
// Property tests must not fail by chance: every `npm test` runs them with one fixed seed, so a
// red run is red on every machine and every run. fast-check prints the seed (and the path to the
// failing case) in its failure message; `FC_SEED=<seed> npm test` replays it. A wider, random
// search is `npm run test:random` (FC_SEED=random), which prints the seed it drew: a separate
// job that finds new cases without making `npm test` flaky.
import fc from 'fast-check'

const FIXED_SEED = 20_261_124

export function chooseSeed(requested: string | undefined): number {
  if (requested === undefined || requested === '') return FIXED_SEED
  if (requested === 'random') return (Math.random() * 2 ** 31) | 0
  const seed = Number(requested)
  if (!Number.isSafeInteger(seed))
    throw new Error(`FC_SEED must be an integer or "random", not "${requested}"`)
  return seed
}

const seed = chooseSeed(process.env.FC_SEED)
if (process.env.FC_SEED === 'random') process.stderr.write(`fast-check: FC_SEED=${seed}\n`)
fc.configureGlobal({ seed })

export default fc
