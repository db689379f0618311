// Preloaded (--import) into a process whose peak memory and CPU time the bench reports: Node
// gives a parent no rusage of its children, so the child writes its own at exit.
import { writeFileSync } from 'node:fs'

process.on('exit', () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage()
  writeFileSync(
    process.env.BENCH_USAGE_FILE,
    JSON.stringify({ maxRssKiB: maxRSS, cpuMs: (userCPUTime + systemCPUTime) / 1000 }),
  )
})
